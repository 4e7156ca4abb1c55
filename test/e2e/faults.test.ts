/**
 * Planted faults prove that each check can fire: against the greeting service with one fault,
 * exactly the requirement that fault breaks turns failed and every other status stays what a
 * correct service earns (the whole status map is compared).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declarePeer } from '../helpers/peer.js';
import { validate, xmllint, xpath } from '../reporting/xmllint.js';
import { CLOCK_HOOK, EXEC_FAULT, assertBuilt, demoSection, reportOf, runDemo, statusMap, tempDir, writeProfile } from './cli.js';
import { CONFORMANT } from './demo-verdicts.js';
import { faultServers } from './fault-server.js';

const HTTP_FAULTS: [fault: string, requirement: string][] = [
  ['wrong-greeting', 'DEMO-HELLO'],
  ['lower-name', 'DEMO-HELLO-CASE'],
  ['mangled-unicode', 'DEMO-HELLO-UNICODE'],
  ['no-header', 'DEMO-VERSION-HEADER'],
  ['renamed-header', 'DEMO-VERSION-HEADER'],
  ['lossy-id', 'DEMO-BIG-ID'],
  ['bad-double', 'DEMO-DOUBLE'],
  ['no-expiry', 'DEMO-TOKEN-EXPIRY'],
  ['leaky-echo', 'DEMO-ECHO'],
];

const start = faultServers();

describe('planted faults', () => {
  const tmp = tempDir();
  beforeAll(() => assertBuilt());
  // the JUnit checks inside the fault tests need xmllint: skipped visibly (or failing under CI) without it
  declarePeer(xmllint);
  afterAll(() => tmp.remove());

  it('a fault-free external service earns the same statuses as the reference (clock hook included)', async () => {
    const s = await start();
    const profile = writeProfile(tmp.dir, 'none', { name: 'fault-free', suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const run = await runDemo(tmp.dir, ['--target', profile, '--seed', '1']);
    expect(run.stderr).toBe('');
    expect(statusMap(reportOf(run))).toEqual(CONFORMANT);
    expect(run.code).toBe(0);
    expect(run.report?.suites[0]?.properties['clock']).toBe('hook');
  });

  it.each(HTTP_FAULTS)('fault %s fails exactly %s', async (fault, requirement) => {
    const s = await start(fault);
    const profile = writeProfile(tmp.dir, fault, { name: fault, suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const run = await runDemo(tmp.dir, ['--target', profile, '--seed', '1']);
    const report = reportOf(run);
    expect(statusMap(report)).toEqual({ ...CONFORMANT, [requirement]: 'failed' });
    const failed = report.requirements.find((r) => r.id === requirement);
    expect(failed?.failures.length).toBeGreaterThan(0);
    expect(failed?.failures.every((f) => f.requirement === requirement)).toBe(true);
    // MUST failures gate; the one SHOULD requirement does not without --strict
    expect(run.code).toBe(requirement === 'DEMO-VERSION-HEADER' ? 0 : 1);
    if (!xmllint.skip) {
      expect(validate(run.junit).errors).toEqual([]);
      // the requirement's own testcase in the requirements testsuite fails, naming it
      expect(Number(xpath(run.junit, `count(//testcase[contains(@name, "${requirement}")]/failure)`))).toBeGreaterThan(0);
    }
  });

  it('exec fault "lower" fails exactly DEMO-EXEC-UPPER', async () => {
    const s = await start();
    const profile = writeProfile(tmp.dir, 'exec-lower', {
      suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK, exec: { command: process.execPath, args: [EXEC_FAULT, 'lower'] } }) },
    });
    const run = await runDemo(tmp.dir, ['--target', profile, '--seed', '1']);
    expect(statusMap(reportOf(run))).toEqual({ ...CONFORMANT, 'DEMO-EXEC-UPPER': 'failed' });
    expect(run.code).toBe(1);
    const f = run.report?.requirements.find((r) => r.id === 'DEMO-EXEC-UPPER')?.failures[0];
    expect(f?.message).toContain('stdout');
  });

  it('a target that names the version header differently passes once the profile maps the header name', async () => {
    const s = await start('renamed-header');
    const mapped = writeProfile(tmp.dir, 'mapped', {
      suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK, headers: { 'X-Demo-Version': 'X-Vendor-Version' } }) },
    });
    const run = await runDemo(tmp.dir, ['--target', mapped, '--seed', '1']);
    expect(statusMap(reportOf(run))).toEqual(CONFORMANT);
    expect(run.code).toBe(0);
  });
});
