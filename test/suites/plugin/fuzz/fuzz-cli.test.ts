import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fromRoot } from '../../../../src/paths.js';
import { builtSpecgate, declarePeer } from '../../../helpers/peer.js';

/**
 * `specgate fuzz plugin` end to end, through the compiled CLI: a planted fault is found, the
 * counterexample files are written, and the printed replay reproduces the same request.
 */
const cli = builtSpecgate('suites/plugin/fuzz/fuzz-plugin.js');
const outDir = mkdtempSync(join(tmpdir(), 'specgate-fuzz-cli-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function specgate(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [fromRoot('bin', 'specgate.js'), ...args], { encoding: 'utf8', timeout: 600_000, cwd: fromRoot() });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('specgate fuzz plugin (CLI)', { timeout: 900_000 }, () => {
  declarePeer(cli);

  it.skipIf(cli.skip)('exits 1 on a finding, writes the request, and its replay command reproduces it beside the first files, not over them', () => {
    const plugin = `${process.execPath} ${fromRoot('test', 'fixtures', 'plugin-fuzz', 'crash-on-oneof.mjs')}`;
    // one lane (25 requests): the finding is in it, and a second lane would only run beside it
    const first = specgate(['fuzz', 'plugin', '--plugin', plugin, '--runs', '25', '--seed', '5', '--out', outDir]);
    expect(first.status).toBe(1);
    expect(first.stdout).toMatch(/^PLUGIN-IO-ONE-RESPONSE: the plugin died of SIGABRT/);
    const replay = first.stdout.match(/replay: (.*)/)?.[1] ?? '';
    const seed = replay.match(/--seed (\d+)/)?.[1] ?? '';
    const path = replay.match(/--path (\S+)/)?.[1] ?? '';
    expect(replay).toMatch(/ --runs 1$/);
    // each file and the replay command once, then where the files are
    const stem = join(outDir, `fuzz-plugin-${seed}-plugin-io-one-response`);
    for (const ext of ['bin', 'json', 'yaml']) expect(first.stdout.split(`wrote ${stem}.${ext}\n`)).toHaveLength(2);
    expect(first.stdout.split('replay: ')).toHaveLength(2);
    expect(first.stdout).toContain(`counterexample files are in ${outDir}`);
    expect(first.stderr).not.toContain('PLUGIN-IO-ONE-RESPONSE');
    const bin = readFileSync(`${stem}.bin`);
    const json = readFileSync(`${stem}.json`, 'utf8');

    const again = specgate(['fuzz', 'plugin', '--plugin', plugin, '--out', outDir, '--seed', seed, '--path', path, '--runs', '1']);
    expect(again.status).toBe(1);
    expect(again.stdout).toContain(`wrote ${stem}-2.bin`);
    expect(readFileSync(`${stem}-2.bin`).equals(bin)).toBe(true);
    expect(readFileSync(`${stem}.json`, 'utf8')).toBe(json);
  });

  it.skipIf(cli.skip)('a finding below MUST is reported with exit 0, and fails the search with the flag that gates its level', () => {
    // the level the catalog gives PLUGIN-DETERMINISTIC decides which flag makes it gate, as for `run`
    const catalog = parse(readFileSync(fromRoot('suites', 'plugin', 'requirements.yaml'), 'utf8')) as { id: string; level: string }[];
    const level = catalog.find((r) => r.id === 'PLUGIN-DETERMINISTIC')?.level ?? '';
    const flag = ({ SHOULD: '--strict', STRICTER: '--stricter' } as Record<string, string>)[level] ?? '';
    expect(flag, `PLUGIN-DETERMINISTIC is ${level}`).not.toBe('');
    // the first request of seed 1234, judged without shrinking (path 0): two plugin processes
    const plugin = `${process.execPath} ${fromRoot('test', 'fixtures', 'plugin', 'fuzz', 'stamps-answers.mjs')}`;
    const args = ['fuzz', 'plugin', '--plugin', plugin, '--runs', '1', '--seed', '1234', '--path', '0', '--out', outDir];
    const below = specgate(args);
    expect(below.status, below.stdout + below.stderr).toBe(0);
    expect(below.stdout).toMatch(/^no finding at the gating level in 1 valid requests; 1 below it:\nPLUGIN-DETERMINISTIC: /);
    expect(below.stdout).toContain('no finding at the gating level (MUST): exit 0');
    const gated = specgate([...args, flag]);
    expect(gated.status, gated.stdout + gated.stderr).toBe(1);
    expect(gated.stdout).toMatch(/^PLUGIN-DETERMINISTIC: /);
    expect(gated.stdout).toMatch(new RegExp(`replay: .* ${flag} --seed 1234 --path 0 --runs 1$`, 'm'));
  });

  it.skipIf(cli.skip)('--baseline: violations of expected requirements are counted, not reported; other findings still are', () => {
    const baseline = join(outDir, 'baseline.yaml');
    writeFileSync(baseline, 'expected-failures:\n  - { id: PLUGIN-FILE-NAME-NO-DOT-COMPONENTS, reason: known deviation }\n  - { id: plugin/some-case, reason: case entries do not apply to fuzzing }\n  - { id: OAUTH-DEVICE-SLOW-DOWN-INTERVAL, reason: another suite of the same gate }\n');
    const dotdot = `${process.execPath} ${fromRoot('test', 'fixtures', 'plugin-fuzz', 'dotdot-on-nested-enum.mjs')}`;
    // seed 8: the first request already has a nested enum; each request costs several plugin runs
    const known = specgate(['fuzz', 'plugin', '--plugin', dotdot, '--runs', '10', '--seed', '8', '--out', outDir, '--baseline', baseline]);
    expect(known.status, known.stdout + known.stderr).toBe(0);
    expect(known.stdout).toMatch(/^no finding in 10 valid requests; expected by the baseline, not reported: PLUGIN-FILE-NAME-NO-DOT-COMPONENTS in [1-9]\d* request\(s\)/);

    const crash = `${process.execPath} ${fromRoot('test', 'fixtures', 'plugin-fuzz', 'crash-on-oneof.mjs')}`;
    const other = specgate(['fuzz', 'plugin', '--plugin', crash, '--runs', '25', '--seed', '5', '--out', outDir, '--baseline', baseline]);
    expect(other.status).toBe(1);
    expect(other.stdout).toMatch(/^PLUGIN-IO-ONE-RESPONSE: the plugin died of SIGABRT/);
    expect(other.stdout).toContain(`--baseline ${baseline}`);
  });

  it.skipIf(cli.skip)('--baseline naming no requirement of any suite is refused (exit 2), so a typo cannot hide findings', () => {
    const baseline = join(outDir, 'typo.yaml');
    writeFileSync(baseline, 'expected-failures:\n  - { id: PLUGIN-FEATURES-KNOWN-BIT, reason: typo }\n');
    const r = specgate(['fuzz', 'plugin', '--runs', '5', '--out', outDir, '--baseline', baseline]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('"PLUGIN-FEATURES-KNOWN-BIT" is no requirement of any suite');
  });

  it.skipIf(cli.skip)('--baseline naming a case by its bare ID is accepted and does not apply to fuzzing', () => {
    const baseline = join(outDir, 'bare-case.yaml');
    writeFileSync(baseline, 'expected-failures:\n  - { id: plugin-answers-a-small-request, reason: a case written without its suite }\n');
    const r = specgate(['fuzz', 'plugin', '--runs', '2', '--seed', '3', '--out', outDir, '--baseline', baseline]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^no finding in 2 valid requests/);
  });

  it.skipIf(cli.skip)('exits 0 on the embedded reference plugin', () => {
    // each request is judged in two wire orders and, with imports, asked three more ways
    const r = specgate(['fuzz', 'plugin', '--runs', '12', '--seed', '3', '--out', outDir]);
    expect(r.stdout).toMatch(/^no finding in 12 valid requests/);
    expect(r.status).toBe(0);
  });
});
