import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../../src/paths.js';
import { declarePeer, requirePeer } from '../../../helpers/peer.js';

/**
 * `specgate fuzz plugin` end to end, through the compiled CLI: a planted fault is found, the
 * counterexample files are written, and the printed replay reproduces the same request.
 */
const built = existsSync(fromRoot('dist', 'src', 'cli', 'main.js')) && existsSync(fromRoot('dist', 'suites', 'plugin', 'fuzz', 'fuzz-plugin.js'));
const cli = requirePeer('compiled specgate (dist/)', built, 'npm run build');
const outDir = mkdtempSync(join(tmpdir(), 'specgate-fuzz-cli-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function specgate(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [fromRoot('bin', 'specgate.js'), ...args], { encoding: 'utf8', timeout: 600_000, cwd: fromRoot() });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('specgate fuzz plugin (CLI)', { timeout: 900_000 }, () => {
  declarePeer(cli);

  it.skipIf(cli.skip)('exits 1 on a finding, writes the request, and its replay command reproduces it', () => {
    const plugin = `${process.execPath} ${fromRoot('test', 'fixtures', 'plugin-fuzz', 'crash-on-oneof.mjs')}`;
    const first = specgate(['fuzz', 'plugin', '--plugin', plugin, '--runs', '60', '--seed', '5', '--out', outDir]);
    expect(first.status).toBe(1);
    expect(first.stdout).toMatch(/^PLUGIN-IO-ONE-RESPONSE: the plugin died of SIGABRT/);
    const replay = first.stdout.match(/replay: (.*)/)?.[1] ?? '';
    const seed = replay.match(/--seed (\d+)/)?.[1] ?? '';
    const path = replay.match(/--path (\S+)/)?.[1] ?? '';
    expect(replay).toMatch(/ --runs 1$/);
    const json = join(outDir, `fuzz-plugin-${seed}.json`);
    const request: unknown = JSON.parse(readFileSync(json, 'utf8'));
    rmSync(json);

    const again = specgate(['fuzz', 'plugin', '--plugin', plugin, '--out', outDir, '--seed', seed, '--path', path, '--runs', '1']);
    expect(again.status).toBe(1);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toEqual(request);
  });

  it.skipIf(cli.skip)('exits 0 on the embedded reference plugin', () => {
    const r = specgate(['fuzz', 'plugin', '--runs', '30', '--seed', '3', '--out', outDir]);
    expect(r.stdout).toMatch(/^no finding in 30 valid requests/);
    expect(r.status).toBe(0);
  });
});
