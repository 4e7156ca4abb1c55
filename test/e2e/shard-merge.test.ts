/**
 * `run --shard k/n` and `merge`, end to end: the demo suite against a greeting service with
 * several planted faults, run once whole and once as three shards (each against its own copy
 * of the service, as CI machines would be), then merged. The merged verdicts, case outcomes and
 * exit code equal the unsharded run's, requirement by requirement.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_HOOK, assertBuilt, demoSection, readReport, reportOf, runCli, runDemo, tempDir, writeProfile, type JsonReport } from './cli.js';
import { faultServers } from './fault-server.js';

const tmp = tempDir();
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

const FAULTS = ['wrong-greeting', 'lossy-id', 'bad-double', 'no-expiry', 'no-header'];
const SEED = '4242';

/** What must not change when a run is split: each requirement's status, each case's outcome and the requirements it failed. */
function verdicts(report: JsonReport): { requirements: Record<string, string>; cases: Record<string, { outcome: string; failed: string[]; baseline: string | null }> } {
  return {
    requirements: Object.fromEntries(report.requirements.map((r) => [r.id, r.status])),
    cases: Object.fromEntries(report.suites.flatMap((s) => s.cases).map((c) => [c.id, { outcome: c.outcome, failed: [...new Set(c.failures.map((f) => f.requirement))].sort(), baseline: c.baseline }])),
  };
}

async function profileFor(name: string): Promise<string> {
  const s = await faultServer(...FAULTS);
  return writeProfile(tmp.dir, name, { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
}

describe('three shards merged equal the unsharded run', () => {
  let whole: Awaited<ReturnType<typeof runDemo>>;
  let shards: Awaited<ReturnType<typeof runDemo>>[];
  beforeAll(async () => {
    const profiles = await Promise.all(['whole', 'shard-1', 'shard-2', 'shard-3'].map(profileFor));
    const dirs = [1, 2, 3].map((k) => {
      const d = join(tmp.dir, `shard-${k}`);
      mkdirSync(d, { recursive: true });
      return d;
    });
    [whole, ...shards] = await Promise.all([
      runDemo(tmp.dir, ['--target', profiles[0] as string, '--seed', SEED]),
      ...dirs.map((d, i) => runDemo(d, ['--target', profiles[i + 1] as string, '--seed', SEED, '--shard', `${i + 1}/3`])),
    ]);
  });

  it('the unsharded run fails (the planted faults are found)', () => {
    expect(whole.code).toBe(1);
    expect(verdicts(reportOf(whole)).requirements).toMatchObject({ 'DEMO-HELLO': 'failed', 'DEMO-BIG-ID': 'failed', 'DEMO-DOUBLE': 'failed', 'DEMO-TOKEN-EXPIRY': 'failed', 'DEMO-VERSION-HEADER': 'failed' });
  });

  it('each shard runs a part, and together they run every case once', () => {
    const parts = shards.map((s) => reportOf(s).suites.flatMap((x) => x.cases.map((c) => c.id)));
    const all = reportOf(whole).suites.flatMap((x) => x.cases.map((c) => c.id));
    expect(parts.flat().sort()).toEqual([...all].sort());
    expect(parts.filter((p) => p.length > 0).length).toBeGreaterThan(1);
    for (const [i, s] of shards.entries()) expect(s.stdout).toContain(`shard ${i + 1}/3: ${parts[i]?.length ?? -1} of ${all.length} case(s)`);
  });

  it('merged: the same verdicts, outcomes and exit code, and the reports written', async () => {
    const out = join(tmp.dir, 'merged');
    const merged = await runCli(['merge', ...shards.map((s) => s.json), '--report', `json=${join(out, 'results.json')}`, '--report', `junit=${join(out, 'junit.xml')}`], { cwd: tmp.dir });
    expect(merged.stderr).toBe('');
    const report = readReport(join(out, 'results.json'));
    expect(verdicts(report)).toEqual(verdicts(reportOf(whole)));
    expect(report.summary.exitCode).toBe(reportOf(whole).summary.exitCode);
    expect(report.summary.cases).toEqual(reportOf(whole).summary.cases);
    expect(merged.code).toBe(whole.code);
    expect(merged.stdout).toContain('not conformant');
    // the same cases in the same order as the unsharded run, and a JUnit file for the gate
    expect(report.suites[0]?.cases.map((c) => c.id)).toEqual(reportOf(whole).suites[0]?.cases.map((c) => c.id));
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('<testsuite name="demo.requirements"');
  });

  it('merged with --strict and a baseline: judged as an unsharded run with them would be', async () => {
    const out = join(tmp.dir, 'merged-strict');
    const merged = await runCli(['merge', ...shards.map((s) => s.json), '--strict', '--report', `json=${join(out, 'results.json')}`], { cwd: tmp.dir });
    expect(merged.code).toBe(1);
    expect(readReport(join(out, 'results.json')).summary.verdict).toContain('(MUST and SHOULD)');
  });

  it('a missing shard is refused with exit 2 and no verdict', async () => {
    const out = join(tmp.dir, 'merged-missing');
    const merged = await runCli(['merge', shards[0]?.json as string, shards[2]?.json as string, '--report', `json=${join(out, 'results.json')}`], { cwd: tmp.dir });
    expect(merged.code).toBe(2);
    expect(merged.stderr).toContain('shard 2/3 missing');
    expect(existsSync(join(out, 'results.json'))).toBe(false);
  });

  it('shards balanced by an earlier run\'s timings merge to the same verdicts', async () => {
    const profile = await profileFor('timed');
    const runs = [];
    for (const k of [1, 2, 3]) {
      const d = join(tmp.dir, `timed-${k}`);
      mkdirSync(d, { recursive: true });
      runs.push(await runDemo(d, ['--target', profile, '--seed', SEED, '--shard', `${k}/3`, '--shard-timings', whole.json]));
    }
    for (const r of runs) expect(r.stdout).toContain('split balanced by timings');
    const out = join(tmp.dir, 'merged-timed');
    const merged = await runCli(['merge', ...runs.map((r) => r.json), '--report', `json=${join(out, 'results.json')}`], { cwd: tmp.dir });
    expect(verdicts(readReport(join(out, 'results.json')))).toEqual(verdicts(reportOf(whole)));
    expect(merged.code).toBe(whole.code);
  });
});
