/**
 * A property failure carries what it takes to reproduce it: the seed, the fast-check path, the
 * shrunk counterexample and a replay command; running that exact command reproduces the
 * failure with only that case.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSeed } from '../../cli/seed-value.js';
import { CLOCK_HOOK, assertBuilt, caseOf, demoSection, readReport, reportOf, runCli, runDemo, tempDir, writeProfile } from './cli.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { splitCommand } from './shell-words.js';

/** Runs a printed replay command (`specgate ...`) with the built CLI, in `cwd`. */
async function replay(command: string, cwd: string): Promise<Awaited<ReturnType<typeof runCli>>> {
  const [program, ...args] = splitCommand(command);
  expect(program).toBe('specgate');
  return runCli(args, { cwd });
}

describe.each([
  // a YAML property case: n > 50 is doubled wrongly, so shrinking must end at 51
  { fault: 'bad-double', caseId: 'double-property', requirement: 'DEMO-DOUBLE', counterexample: 51 },
  // a typed check's ctx.property: lower-cased names, so the smallest name with a capital is "A"
  { fault: 'lower-name', caseId: 'name-echo', requirement: 'DEMO-HELLO-CASE', counterexample: 'A' },
])('property failure of $caseId against fault $fault', ({ fault, caseId, requirement, counterexample }) => {
  const tmp = tempDir();
  let server: FaultServer;
  let profile: string;
  let first: Awaited<ReturnType<typeof runDemo>>;

  beforeAll(async () => {
    assertBuilt();
    server = await startFaultServer(fault);
    profile = writeProfile(tmp.dir, fault, { suites: { demo: demoSection(server.url, { clock: CLOCK_HOOK }) } });
    first = await runDemo(tmp.dir, ['--target', profile, '--seed', '4242']);
  });
  afterAll(async () => {
    await server.stop();
    tmp.remove();
  });

  it('reports seed, path, shrunk counterexample and a replay command', () => {
    expect(first.code).toBe(1);
    const c = caseOf(reportOf(first), caseId);
    expect(c.outcome).toBe('failed');
    const f = c.failures.find((x) => x.requirement === requirement);
    const p = f?.property;
    expect(p?.seed).toBe(4242);
    expect(p?.path).toMatch(/^\d+(:\d+)*$/);
    expect(p?.counterexample).toBe(counterexample);
    expect(p?.replay).toMatch(/^specgate run /);
    expect(p?.replay).toContain(`--case ${caseId}`);
    expect(p?.replay).toContain('--seed 4242');
    expect(p?.replay).toContain(`--path ${p?.path ?? ''}`);
    // the console shows the same replay command, whole
    expect(first.stdout).toContain(p?.replay);
  });

  it('the replay command reproduces the failure with that one case', async () => {
    const p = caseOf(reportOf(first), caseId).failures.find((x) => x.requirement === requirement)?.property;
    const again = await replay(p?.replay ?? '', tmp.dir);
    expect(again.code).toBe(1);
    // the replay names no --report: the default reports land in the working folder
    const report = readReport(join(tmp.dir, 'reports', 'results.json'));
    const cases = report.suites.flatMap((s) => s.cases);
    expect(cases.map((c) => c.id)).toEqual([caseId]);
    expect(cases[0]?.outcome).toBe('failed');
    const f = cases[0]?.failures.find((x) => x.requirement === requirement);
    expect(f?.property?.counterexample).toBe(counterexample);
    expect(report.requirements.find((r) => r.id === requirement)?.status).toBe('failed');
  });
});

describe('property failure under a seed given as a CI run ID (folded)', () => {
  const tmp = tempDir();
  const given = '12345678901';
  const folded = parseSeed(given).seed;
  let server: FaultServer;
  let first: Awaited<ReturnType<typeof runDemo>>;

  beforeAll(async () => {
    assertBuilt();
    server = await startFaultServer('bad-double');
    const profile = writeProfile(tmp.dir, 'bad-double', { suites: { demo: demoSection(server.url, { clock: CLOCK_HOOK }) } });
    first = await runDemo(tmp.dir, ['--target', profile, '--case', 'double-property', '--seed', given]);
  });
  afterAll(async () => {
    await server.stop();
    tmp.remove();
  });

  it('says once that it folded the seed; the report, the failure and its replay carry the folded seed', () => {
    expect(first.code).toBe(1);
    expect(first.stdout.split(`seed ${given} folded to ${folded}\n`).length).toBe(2);
    expect(reportOf(first).seed).toBe(folded);
    const p = caseOf(reportOf(first), 'double-property').failures.find((x) => x.requirement === 'DEMO-DOUBLE')?.property;
    expect(p?.seed).toBe(folded);
    expect(p?.replay).toContain(`--seed ${folded}`);
    expect(p?.replay).not.toContain(given);
  });

  it('the replay reproduces the same shrunk input by the same path, without folding again', async () => {
    const p = caseOf(reportOf(first), 'double-property').failures.find((x) => x.requirement === 'DEMO-DOUBLE')?.property;
    const again = await replay(p?.replay ?? '', tmp.dir);
    expect(again.code).toBe(1);
    expect(again.stdout).not.toContain('folded');
    const f = caseOf(readReport(join(tmp.dir, 'reports', 'results.json')), 'double-property').failures.find((x) => x.requirement === 'DEMO-DOUBLE');
    expect([f?.property?.seed, f?.property?.path, f?.property?.counterexample]).toEqual([folded, p?.path, 51]);
  });
});
