/**
 * `run --shard k/n` and `merge`, end to end: the demo suite against a greeting service with
 * several planted faults, run once whole and once as three shards (each against its own copy
 * of the service, as CI machines would be), then merged. The merged verdicts, case outcomes and
 * exit code equal the unsharded run's, requirement by requirement.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_HOOK, DEMO_MODULE, assertBuilt, demoSection, readReport, reportOf, runCli, runDemo, tempDir, writeProfile, type JsonReport } from './cli.js';
import { faultServers } from './fault-server.js';
import { runSlots } from './run-slots.js';

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

/** The baseline both the merge and the unsharded run judge with in the --strict test. */
function writeStrictBaseline(): string {
  const baseline = join(tmp.dir, 'baseline.yaml');
  writeFileSync(
    baseline,
    ['expected-failures:', '  - { id: DEMO-HELLO, reason: says hi }', '  - { id: demo/big-id, reason: lossy }', '  - { id: "demo/double-property:DEMO-DOUBLE", reason: off by one }', '  - { id: DEMO-TOKEN-EXPIRY, reason: never expires }', ''].join('\n'),
  );
  return baseline;
}

function freshDir(name: string): string {
  const d = join(tmp.dir, name);
  mkdirSync(d, { recursive: true });
  return d;
}

/**
 * Runs of this file, four at a time (as many as it ran side by side before the runs were
 * gathered here): each waits on its own service in turns, so they fill each other's waits, and
 * every run still has a service of its own.
 */
const slot = runSlots(4);

describe('three shards merged equal the unsharded run', () => {
  let whole: Awaited<ReturnType<typeof runDemo>>;
  let shards: Awaited<ReturnType<typeof runDemo>>[];
  /** The same three shards balanced by the unsharded run's timings, each against its own service. */
  let timed: Awaited<ReturnType<typeof runDemo>>[];
  /** The unsharded run judged with the baseline under --strict. */
  let strictWhole: Awaited<ReturnType<typeof runDemo>>;
  let baseline: string;
  // Every run the tests below compare is made here, side by side; the tests make the merges.
  beforeAll(async () => {
    baseline = writeStrictBaseline();
    const demo = (name: string, dir: string, args: string[]): Promise<Awaited<ReturnType<typeof runDemo>>> => slot(async () => runDemo(dir, ['--target', await profileFor(name), '--seed', SEED, ...args]));
    const wholeRun = demo('whole', tmp.dir, []);
    const shardRuns = [1, 2, 3].map((k) => demo(`shard-${k}`, freshDir(`shard-${k}`), ['--shard', `${k}/3`]));
    const strictRun = demo('whole-baseline', freshDir('whole-baseline'), ['--baseline', baseline, '--strict']);
    // the timed shards read the unsharded run's report, so they start once it is written
    const timedRuns = wholeRun.then((w) => Promise.all([1, 2, 3].map((k) => demo(`timed-${k}`, freshDir(`timed-${k}`), ['--shard', `${k}/3`, '--shard-timings', w.json]))));
    [whole, shards, strictWhole, timed] = await Promise.all([wholeRun, Promise.all(shardRuns), strictRun, timedRuns]);
  }, 180_000);

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
    const merged = await runCli(['merge', '--suite-module', DEMO_MODULE, ...shards.map((s) => s.json), '--report', `json=${join(out, 'results.json')}`, '--report', `junit=${join(out, 'junit.xml')}`], { cwd: tmp.dir });
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

  it('merged with a baseline and --strict: judged as an unsharded run with them is', async () => {
    const out = join(tmp.dir, 'merged-strict');
    const [strict, lenient] = await Promise.all([
      runCli(['merge', '--suite-module', DEMO_MODULE, ...shards.map((s) => s.json), '--baseline', baseline, '--strict', '--report', `json=${join(out, 'results.json')}`], { cwd: tmp.dir }),
      runCli(['merge', '--suite-module', DEMO_MODULE, ...shards.map((s) => s.json), '--baseline', baseline, '--report', `json=${join(out, 'lenient.json')}`], { cwd: tmp.dir }),
    ]);
    expect(verdicts(readReport(join(out, 'results.json')))).toEqual(verdicts(reportOf(strictWhole)));
    expect(verdicts(reportOf(strictWhole)).requirements).toMatchObject({ 'DEMO-HELLO': 'expected-failure', 'DEMO-DOUBLE': 'expected-failure', 'DEMO-VERSION-HEADER': 'failed' });
    // only the SHOULD failure is left, and it gates under --strict alone
    expect([strict.code, strictWhole.code]).toEqual([1, 1]);
    expect(lenient.code).toBe(0);
    // the shards ran without --strict: the merge says its own level decides
    expect(strict.stdout).toContain('(gating MUST) ran at another gating level than this merge (MUST and SHOULD)');
  });

  it('a missing shard is refused with exit 2 and no verdict', async () => {
    const out = join(tmp.dir, 'merged-missing');
    const merged = await runCli(['merge', '--suite-module', DEMO_MODULE, shards[0]?.json as string, shards[2]?.json as string, '--report', `json=${join(out, 'results.json')}`], { cwd: tmp.dir });
    expect(merged.code).toBe(2);
    expect(merged.stderr).toContain('shard 2/3 missing');
    expect(existsSync(join(out, 'results.json'))).toBe(false);
  });

  it('shards balanced by an earlier run\'s timings merge to the same verdicts', async () => {
    for (const r of timed) expect(r.stdout).toContain('split balanced by timings');
    const out = join(tmp.dir, 'merged-timed');
    const merged = await runCli(['merge', '--suite-module', DEMO_MODULE, ...timed.map((r) => r.json), '--report', `json=${join(out, 'results.json')}`], { cwd: tmp.dir });
    expect(verdicts(readReport(join(out, 'results.json')))).toEqual(verdicts(reportOf(whole)));
    expect(merged.code).toBe(whole.code);
  });
});
