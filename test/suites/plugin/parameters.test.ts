import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { runCli } from '../../e2e/cli.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';

/**
 * Parameters by default, through the built command line: without vars.plugin_parameters a run
 * sends generated parameters (case plugin-answers-with-generated-parameters), judges the
 * response rules on the answers, catches a plugin that mishandles one, and sets aside a
 * parameter the plugin refuses by exiting non-zero; with the var, only its values are sent.
 */

const suiteModule = fromRoot('dist', 'suites', 'plugin', 'index.js');
const fixtures = fromRoot('dist', 'test', 'fixtures', 'plugin');
const recorder = join(fixtures, 'controls', 'plugin-records-parameters.js');
const built = builtSpecgate(suiteModule, recorder);
declarePeer(built);
const work = mkdtempSync(join(tmpdir(), 'specgate-parameters-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CASE = 'plugin-answers-with-generated-parameters';

interface Report {
  requirements: { id: string; status: string; reason?: string }[];
  suites: { cases: { id: string; outcome: string; reason?: string; evidence?: Record<string, number> | null; failures: { requirement?: string }[] }[] }[];
}

async function run(label: string, args: string[]): Promise<{ report: Report; out: string }> {
  const file = join(work, `${label}.json`);
  const r = await runCli(['run', '--suite-module', suiteModule, '--suite', 'plugin', '--side', 'plugin', '--seed', '7', '--no-color', '--report', `json=${file}`, ...args], { cwd: process.cwd() });
  const out = `${r.stdout}${r.stderr}`;
  if (!existsSync(file)) throw new Error(`no report (exit ${r.code}):\n${out}`);
  return { report: JSON.parse(readFileSync(file, 'utf8')) as Report, out };
}

/** The parameters the recording plugin was sent, in order (null: none). */
function sent(log: string): (string | null)[] {
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string | null) : [];
}

const caseOf = (r: Report) => r.suites.flatMap((s) => s.cases).find((c) => c.id === CASE);
const failed = (r: Report) => r.requirements.filter((q) => q.status === 'failed').map((q) => q.id);

describe.skipIf(built.skip)('plugin parameters by default', () => {
  it('a run without a profile sends generated parameters and judges every response rule on the answers', async () => {
    const log = join(work, 'default.log');
    const { report, out } = await run('default', ['--plugin', `node ${recorder} ${log}`, '--case', CASE]);
    const params = sent(log).filter((p): p is string => p !== null && p !== '');
    expect(params.length, out).toBeGreaterThan(0);
    for (const p of params) expect(p).toMatch(/^suffix=[^,]+(,chunk_lines=\d+)?(,insert=[^,]+@messages)?$/);
    // what only a parameter switches on in the reference plugin: chunks and an insertion
    expect(params.some((p) => p.includes('chunk_lines='))).toBe(true);
    expect(params.some((p) => p.includes('insert='))).toBe(true);
    const c = caseOf(report);
    expect(c?.outcome, out).toBe('passed');
    for (const id of ['PLUGIN-FILE-NAME-RELATIVE', 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS', 'PLUGIN-FILE-NAME-SLASH-SEPARATOR', 'PLUGIN-FILE-APPEND-HAS-PREVIOUS', 'PLUGIN-FILE-NAME-ONCE', 'PLUGIN-INSERTION-NAMES-FILE', 'PLUGIN-INSERTION-EXISTING-FILE', 'PLUGIN-INSERTION-POINT-MARKED']) {
      expect(c?.evidence?.[id] ?? 0, id).toBeGreaterThan(0);
      expect(report.requirements.find((q) => q.id === id)?.status, id).toBe('passed');
    }
  }, 240_000);

  it('the profile\'s plugin_parameters win: only those values are sent', async () => {
    const log = join(work, 'profile.log');
    const profile = join(work, 'profile.yaml');
    writeFileSync(profile, 'name: listed parameters\nsuites:\n  plugin:\n    vars:\n      plugin_parameters: ["suffix=.listed.txt", "chunk_lines=2"]\n');
    const { report, out } = await run('profile', ['--target', profile, '--plugin', `node ${recorder} ${log}`, '--case', `${CASE},plugin-file-names-are-relative`]);
    expect(new Set(sent(log).filter((p) => p !== null))).toEqual(new Set(['suffix=.listed.txt', 'chunk_lines=2']));
    expect(caseOf(report)?.outcome, out).toBe('passed');
  }, 240_000);

  it('a plugin that builds names from the parameter wrongly is caught by a default run (no profile), and only there', async () => {
    const { report, out } = await run('fault', ['--plugin', join(fixtures, 'faults', 'plugin-suffix-dot-dir.js')]);
    expect(failed(report), out).toEqual(['PLUGIN-FILE-NAME-NO-DOT-COMPONENTS']);
    const failing = report.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'failed').map((c) => c.id);
    expect(failing).toEqual([CASE]);
  }, 240_000);

  it('a generated parameter the plugin refuses by exiting non-zero fails nothing, and the case says so', async () => {
    const { report, out } = await run('refuses', ['--plugin', join(fixtures, 'controls', 'plugin-refuses-parameters.js'), '--case', `${CASE},plugin-fails-only-through-the-error-field`]);
    expect(failed(report), out).toEqual([]);
    expect(report.requirements.find((q) => q.id === 'PLUGIN-ERROR-EXIT-ZERO')?.status).toBe('passed');
    expect(JSON.stringify(caseOf(report))).toContain('refused 10 generated parameter(s) by a non-zero exit');
  }, 240_000);
});
