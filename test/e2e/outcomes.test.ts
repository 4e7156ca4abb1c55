/**
 * Case outcomes beyond passed/failed and the gate around them: errored (unreachable target),
 * skipped (time-bound without a clock), expected failures, stale and expired baseline entries,
 * and --strict for SHOULD-level failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declarePeer } from '../helpers/peer.js';
import { validate, xmllint, xpath } from '../reporting/xmllint.js';
import { CLOCK_HOOK, assertBuilt, caseOf, demoSection, runDemo, statusMap, tempDir, reportOf, writeBaseline, writeProfile } from './cli.js';
import { CONFORMANT, DEMO } from './demo-verdicts.js';
import { closedPort, faultServers } from './fault-server.js';

const tmp = tempDir();
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

const baselineFile = (name: string, entries: { id: string; reason: string; expires?: string }[]): string => writeBaseline(tmp.dir, name, entries);

describe('errored: an unreachable target', () => {
  let run: Awaited<ReturnType<typeof runDemo>>;
  beforeAll(async () => {
    const profile = writeProfile(tmp.dir, 'unreachable', { suites: { demo: demoSection(`http://127.0.0.1:${await closedPort()}`, { clock: CLOCK_HOOK }) } });
    run = await runDemo(tmp.dir, ['--target', profile]);
  });

  it('exits 3 (harness or target fault), not 1', () => {
    expect(run.code).toBe(3);
    expect(reportOf(run).summary.exitCode).toBe(3);
    expect(run.stdout).toContain('not judged');
  });

  it('errors every HTTP case with SG_TARGET_UNREACHABLE and a message that says what to check', () => {
    const report = reportOf(run);
    for (const id of ['hello-world', 'name-echo', 'version-header', 'big-id', 'double-property', 'token-issue', 'token-expiry', 'echo-key']) {
      const c = caseOf(report, id);
      expect([id, c.outcome, c.errorCode]).toEqual([id, 'errored', 'SG_TARGET_UNREACHABLE']);
      expect(c.reason).toMatch(/cannot reach .*connection refused.*check the base URL/);
    }
    expect(run.stdout).toContain('SG_TARGET_UNREACHABLE');
  });

  it('still writes a complete report: every requirement with a status and a reason', () => {
    const report = reportOf(run);
    expect(statusMap(report)).toEqual({
      ...Object.fromEntries(Object.keys(CONFORMANT).map((id) => [id, 'untested'])),
      'DEMO-EXEC-UPPER': 'passed',
      'DEMO-REQUEST-LOG': 'excluded',
    });
    const hello = report.requirements.find((r) => r.id === 'DEMO-HELLO');
    expect(hello?.reason).toMatch(/^case hello-world errored: cannot reach/);
    expect(report.suites[0]?.cases).toHaveLength(DEMO.cases.length);
  });

  declarePeer(xmllint);
  it.skipIf(xmllint.skip)('writes a valid JUnit report with the errored cases as errors', () => {
    expect(validate(run.junit).errors).toEqual([]);
    expect(Number(xpath(run.junit, 'count(//testcase/error)'))).toBeGreaterThanOrEqual(8);
    expect(xpath(run.junit, 'count(//failure)')).toBe('0');
  });
});

describe('skipped: a time-bound case and a target without a clock hook', () => {
  it('is skipped with the reason when the profile has no hook and --include-slow is not given', async () => {
    const s = await faultServer();
    const profile = writeProfile(tmp.dir, 'no-clock', { suites: { demo: demoSection(s.url) } });
    const run = await runDemo(tmp.dir, ['--target', profile]);
    const report = reportOf(run);
    const c = caseOf(report, 'token-expiry');
    expect(c.outcome).toBe('skipped');
    expect(c.reason).toMatch(/time-bound: the target has no clock-control hook; add `clock:` to the target profile or pass --include-slow/);
    expect(statusMap(report)).toEqual({ ...CONFORMANT, 'DEMO-TOKEN-EXPIRY': 'untested' });
    expect(report.requirements.find((r) => r.id === 'DEMO-TOKEN-EXPIRY')?.reason).toMatch(/^skipped: time-bound/);
    expect(run.code).toBe(0);
    expect(report.suites[0]?.properties['clock']).toBe('none');
  });

  it('runs through the hook and passes against a correct target', async () => {
    const s = await faultServer();
    const profile = writeProfile(tmp.dir, 'with-clock', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const run = await runDemo(tmp.dir, ['--target', profile, '--case', 'token-expiry']);
    expect(caseOf(reportOf(run), 'token-expiry').outcome).toBe('passed');
    expect(run.code).toBe(0);
  });

  it('runs through the hook and fails against a target whose tokens never expire', async () => {
    const s = await faultServer('no-expiry');
    const profile = writeProfile(tmp.dir, 'with-clock-no-expiry', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const run = await runDemo(tmp.dir, ['--target', profile, '--case', 'token-expiry']);
    const c = caseOf(reportOf(run), 'token-expiry');
    expect(c.outcome).toBe('failed');
    expect(c.failures[0]?.message).toMatch(/^status: expected 401, got 200/);
    expect(run.code).toBe(1);
  });
});

describe('baseline', () => {
  let wrongGreeting: string;
  beforeAll(async () => {
    const s = await faultServer('wrong-greeting');
    wrongGreeting = writeProfile(tmp.dir, 'wrong-greeting', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
  });

  it('a listed failing requirement is an expected failure and the run passes when nothing else fails', async () => {
    const baseline = baselineFile('expected', [{ id: 'DEMO-HELLO', reason: 'vendor says hi, fix planned' }]);
    const run = await runDemo(tmp.dir, ['--target', wrongGreeting, '--baseline', baseline]);
    const report = reportOf(run);
    expect(statusMap(report)).toEqual({ ...CONFORMANT, 'DEMO-HELLO': 'expected-failure' });
    expect(report.requirements.find((r) => r.id === 'DEMO-HELLO')?.reason).toBe('vendor says hi, fix planned');
    expect(run.code).toBe(0);
  });

  it('a listed failing case (suite/case) makes its requirement an expected failure too', async () => {
    const baseline = baselineFile('expected-case', [{ id: 'demo/hello-world', reason: 'known' }]);
    const run = await runDemo(tmp.dir, ['--target', wrongGreeting, '--baseline', baseline]);
    const report = reportOf(run);
    expect(statusMap(report)).toEqual({ ...CONFORMANT, 'DEMO-HELLO': 'expected-failure' });
    expect(caseOf(report, 'hello-world').baseline).toBe('expected-failure');
    expect(run.code).toBe(0);
  });

  it('without the baseline the same run fails', async () => {
    const run = await runDemo(tmp.dir, ['--target', wrongGreeting]);
    expect(run.code).toBe(1);
  });

  it('a listed requirement that passes is stale: exit 1 and a message to remove it', async () => {
    const baseline = baselineFile('stale', [{ id: 'DEMO-BIG-ID', reason: 'was lossy once' }]);
    const run = await runDemo(tmp.dir, ['--baseline', baseline]);
    const report = reportOf(run);
    expect(statusMap(report)).toEqual(CONFORMANT);
    expect(report.requirements.find((r) => r.id === 'DEMO-BIG-ID')?.stale).toBe(true);
    expect(report.summary.staleBaseline).toEqual([{ id: 'DEMO-BIG-ID', reason: 'was lossy once' }]);
    expect(run.stdout).toMatch(/1 baseline entry is stale \(now passing: remove them\)/);
    expect(run.code).toBe(1);
  });

  it('an entry past its expiry date fails the run even though its requirement fails as expected', async () => {
    const baseline = baselineFile('expired', [{ id: 'DEMO-HELLO', reason: 'until the fix', expires: '2000-01-01' }]);
    const run = await runDemo(tmp.dir, ['--target', wrongGreeting, '--baseline', baseline]);
    const report = reportOf(run);
    expect(report.summary.expiredBaseline).toEqual([{ id: 'DEMO-HELLO', reason: 'until the fix', expires: '2000-01-01' }]);
    expect(run.stdout).toMatch(/1 baseline entry has expired/);
    expect(run.code).toBe(1);
  });
});

describe('--strict', () => {
  let noHeader: string;
  beforeAll(async () => {
    const s = await faultServer('no-header');
    noHeader = writeProfile(tmp.dir, 'no-header', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
  });

  it('without it a SHOULD failure is reported but does not gate (exit 0)', async () => {
    const run = await runDemo(tmp.dir, ['--target', noHeader]);
    expect(statusMap(reportOf(run))['DEMO-VERSION-HEADER']).toBe('failed');
    expect(run.code).toBe(0);
    expect(reportOf(run).strict).toBe(false);
  });

  it('with it the SHOULD failure gates (exit 1)', async () => {
    const run = await runDemo(tmp.dir, ['--target', noHeader, '--strict']);
    expect(statusMap(reportOf(run))['DEMO-VERSION-HEADER']).toBe('failed');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('failed at the gating level (MUST and SHOULD)');
  });
});
