import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';

/**
 * A target profile may name the plugin as `exec:` or as `vars.plugin_command`; both must run the
 * same cases as `--plugin`: YAML exec steps and typed checks that need plugin_command alike.
 */
const script = fromRoot('dist', 'reference', 'plugin', 'plugin-main.js');
const built = builtSpecgate(script);
const work = mkdtempSync(join(tmpdir(), 'specgate-profile-forms-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CASES = 'plugin-answers-a-small-request,plugin-generates-only-files-to-generate';

function outcomes(args: string[], label: string): Record<string, string> {
  const report = join(work, `${label}.json`);
  const r = spawnSync(process.execPath, [fromRoot('bin', 'specgate.js'), 'run', '--suite', 'plugin', '--case', CASES, '--no-color', '--report', `json=${report}`, ...args], { encoding: 'utf8' });
  expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as { suites: { cases: { id: string; outcome: string }[] }[] };
  return Object.fromEntries(parsed.suites.flatMap((s) => s.cases).map((c) => [c.id, c.outcome]));
}

describe('plugin target named in a profile', () => {
  declarePeer(built);
  it.skipIf(built.skip)('as exec: or as vars.plugin_command runs the same cases as --plugin', () => {
    const viaExec = join(work, 'exec.yaml');
    writeFileSync(viaExec, `name: exec form\nsuites:\n  plugin:\n    exec: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(script)}] }\n`);
    const viaVar = join(work, 'var.yaml');
    writeFileSync(viaVar, `name: var form\nsuites:\n  plugin:\n    vars:\n      plugin_command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(script)}]\n`);
    const expected = { 'plugin-answers-a-small-request': 'passed', 'plugin-generates-only-files-to-generate': 'passed' };
    expect(outcomes(['--plugin', script], 'flag')).toEqual(expected);
    expect(outcomes(['--target', viaExec], 'exec')).toEqual(expected);
    expect(outcomes(['--target', viaVar], 'var')).toEqual(expected);
  });
});
