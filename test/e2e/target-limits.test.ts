/**
 * Targets that misbehave at the transport level: a hanging or flooding executable, a slow
 * server, a 50 MB body, a body that claims JSON and is not. Faults of the target's transport
 * are harness-level (errored, exit 3) with a code that says which limit was hit; a body that
 * does not parse as the JSON the spec requires is the target breaking the requirement (failed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_HOOK, EXEC_FAULT, assertBuilt, caseOf, demoSection, runDemo, statusMap, tempDir, reportOf, writeProfile } from './cli.js';
import { CONFORMANT } from './demo-verdicts.js';
import { faultServers } from './fault-server.js';

const tmp = tempDir();
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

describe('exec target limits', () => {
  it('a hanging executable is killed at the exec timeout: errored SG_TARGET_TIMEOUT, exit 3', async () => {
    const s = await faultServer();
    const profile = writeProfile(tmp.dir, 'hang', {
      suites: { demo: demoSection(s.url, { exec: { command: process.execPath, args: [EXEC_FAULT, 'hang'], timeoutMs: 300 } }) },
    });
    const run = await runDemo(tmp.dir, ['--target', profile, '--case', 'exec-upper']);
    const c = caseOf(reportOf(run), 'exec-upper');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_TIMEOUT']);
    expect(c.reason).toMatch(/did not finish within 300 ms and was killed with its process group; .*raise exec.timeoutMs/);
    expect(run.code).toBe(3);
    expect(statusMap(reportOf(run))['DEMO-EXEC-UPPER']).toBe('untested');
  });

  it('an executable that floods stdout is stopped at the cap: errored SG_TARGET_TOO_LARGE, exit 3', async () => {
    const s = await faultServer();
    const profile = writeProfile(tmp.dir, 'flood', {
      suites: { demo: demoSection(s.url, { exec: { command: process.execPath, args: [EXEC_FAULT, 'flood'], maxStdoutBytes: 1024 * 1024 } }) },
    });
    const run = await runDemo(tmp.dir, ['--target', profile, '--case', 'exec-upper']);
    const c = caseOf(reportOf(run), 'exec-upper');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_TOO_LARGE']);
    expect(c.reason).toMatch(/wrote more than 1048576 bytes to stdout/);
    expect(run.code).toBe(3);
  });
});

describe('http target limits', () => {
  it('a slow server hits the request timeout: errored SG_TARGET_TIMEOUT, exit 3', async () => {
    const s = await faultServer('slow');
    const profile = writeProfile(tmp.dir, 'slow', { suites: { demo: demoSection(s.url, { http: { timeoutMs: 300 } }) } });
    const run = await runDemo(tmp.dir, ['--target', profile, '--case', 'hello-world,exec-upper']);
    const report = reportOf(run);
    const c = caseOf(report, 'hello-world');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_TIMEOUT']);
    expect(c.reason).toMatch(/did not complete within 300 ms; .*raise http.timeoutMs/);
    expect(caseOf(report, 'exec-upper').outcome).toBe('passed');
    expect(run.code).toBe(3);
  });

  it('a 50 MB body is cut off at the cap: errored SG_TARGET_TOO_LARGE, exit 3, the rest of the report complete', async () => {
    const s = await faultServer('huge');
    const profile = writeProfile(tmp.dir, 'huge', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const run = await runDemo(tmp.dir, ['--target', profile]);
    const report = reportOf(run);
    const c = caseOf(report, 'big-id');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_TOO_LARGE']);
    expect(c.reason).toMatch(/over the cap of 8388608 bytes; the body was not read further/);
    expect(statusMap(report)).toEqual({ ...CONFORMANT, 'DEMO-BIG-ID': 'untested' });
    expect(report.requirements.find((r) => r.id === 'DEMO-BIG-ID')?.reason).toMatch(/^case big-id errored: /);
    expect(run.code).toBe(3);
  });

  it('a body that claims JSON and does not parse fails the requirement with a message that says so (exit 1)', async () => {
    const s = await faultServer('garbage');
    const profile = writeProfile(tmp.dir, 'garbage', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const run = await runDemo(tmp.dir, ['--target', profile]);
    const report = reportOf(run);
    expect(statusMap(report)).toEqual({ ...CONFORMANT, 'DEMO-BIG-ID': 'failed' });
    const c = caseOf(report, 'big-id');
    expect(c.outcome).toBe('failed');
    // the decoding error leads, then the head of the body
    expect(c.failures[0]?.message).toMatch(/^the body is not JSON: .+ \(first bytes: "\{\\"id\\": 9007199254740993,, <html>oops<\/ht"…\)$/);
    expect(c.failures[0]?.actual).toContain('<html>oops</html>');
    expect(run.code).toBe(1);
  });
});
