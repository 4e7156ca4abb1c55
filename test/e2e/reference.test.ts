/**
 * The demo suite against its embedded reference: everything covered passes, the catalog's
 * excluded and uncovered requirements say so, the skip case is skipped with its reason, and the
 * 61-second wait of the time-bound case costs no real time (virtual clock).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declarePeer } from '../helpers/peer.js';
import { validate, xmllint, xpath } from '../reporting/xmllint.js';
import { assertBuilt, caseOf, runDemo, statusMap, tempDir, type JsonReport } from './cli.js';
import { CONFORMANT } from './demo-verdicts.js';

describe('demo suite against its reference', () => {
  const tmp = tempDir();
  let run: Awaited<ReturnType<typeof runDemo>>;
  let report: JsonReport;

  beforeAll(async () => {
    assertBuilt();
    run = await runDemo(tmp.dir, ['--seed', '7']);
    if (!run.report) throw new Error(`no JSON report; stderr: ${run.stderr}`);
    report = run.report;
  });
  afterAll(() => tmp.remove());

  it('exits 0 and says the target is conformant', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(report.summary.exitCode).toBe(0);
    expect(run.stdout).toContain('conformant at the gating level (MUST)');
  });

  it('gives every requirement the status a correct implementation earns', () => {
    expect(statusMap(report)).toEqual(CONFORMANT);
  });

  it('keeps the reasons of excluded and untested requirements visible', () => {
    const byId = new Map(report.requirements.map((r) => [r.id, r]));
    expect(byId.get('DEMO-REQUEST-LOG')?.reason).toBe("the service's logs cannot be observed from outside");
    expect(byId.get('DEMO-FAREWELL')?.reason).toBe('no case covers it');
  });

  it('skips the skip case with its reason and runs every other case', () => {
    const skipped = caseOf(report, 'hello-empty-name');
    expect(skipped.outcome).toBe('skipped');
    expect(skipped.reason).toBe('the spec does not say what GET /hello with an empty name answers');
    const others = report.suites[0]?.cases.filter((c) => c.id !== 'hello-empty-name') ?? [];
    expect(others.map((c) => [c.id, c.outcome])).toEqual(others.map((c) => [c.id, 'passed']));
    expect(others).toHaveLength(9);
  });

  it('lets 61 s pass on the virtual clock: the time-bound case takes a small fraction of that', () => {
    const c = caseOf(report, 'token-expiry');
    expect(c.outcome).toBe('passed');
    // a logic check, not a speed check: real waiting would take at least 61 000 ms
    expect(c.durationMs).toBeLessThan(61_000 / 4);
    expect(report.suites[0]?.properties['clock']).toBe('virtual');
  });

  it('records the seed it was given', () => {
    expect(report.seed).toBe(7);
  });

  it('writes a TAP report with one line per case', () => {
    const tap = readFileSync(run.tap, 'utf8');
    expect(tap).toMatch(/^TAP version/m);
    expect(tap.match(/^(not )?ok \d+/gm)).toHaveLength(10);
    expect(tap).not.toMatch(/^not ok/m);
  });

  describe('JUnit report', () => {
    declarePeer(xmllint);
    it.skipIf(xmllint.skip)('validates against the Jenkins JUnit schema', () => {
      const { ok, errors } = validate(run.junit);
      expect(errors).toEqual([]);
      expect(ok).toBe(true);
    });
    it.skipIf(xmllint.skip)('has no failures or errors and lists every requirement', () => {
      expect(xpath(run.junit, 'count(//failure)')).toBe('0');
      expect(xpath(run.junit, 'count(//error)')).toBe('0');
      for (const id of Object.keys(CONFORMANT)) expect(Number(xpath(run.junit, `count(//testcase[contains(@name, "${id}")])`))).toBeGreaterThan(0);
    });
  });
});
