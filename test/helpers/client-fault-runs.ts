import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunResult } from '../../src/engine/model.js';
import { pool } from '../../src/engine/run-suite.js';
import { tempDir } from '../e2e/cli.js';

/** A CLI run of a suite's client-side cases. */
interface ClientRun {
  exitCode: number | null;
  report: RunResult;
}

/**
 * Registers, in the calling `describe`, a `beforeAll` that runs the client-side cases once with
 * the reference client (`run()`, the embedded default) and once per planted-fault client
 * (`run(faultClient(name))`), two at a time. The runs are read once that hook is done.
 */
export function referenceAndFaultRuns<R extends ClientRun>(
  faults: readonly string[],
  run: (client?: string) => Promise<R>,
  faultClient: (name: string) => string,
): { reference(): R; fault(name: string): R | undefined } {
  const REFERENCE = '(reference client)';
  const runs = new Map<string, R>();
  beforeAll(async () => {
    await pool([REFERENCE, ...faults], 2, async (name) => {
      runs.set(name, await (name === REFERENCE ? run() : run(faultClient(name))));
    });
  }, 300_000);
  return {
    reference: () => {
      const r = runs.get(REFERENCE);
      if (!r) throw new Error('the reference client did not run');
      return r;
    },
    fault: (name) => runs.get(name),
  };
}

/**
 * Asserts that a run passed every client requirement (`statuses` equals `allPassed`), ran exactly
 * the client cases, every one passed, and exited 0.
 */
export function expectEveryClientCasePassed(run: ClientRun, statuses: Record<string, string>, allPassed: Record<string, string>, clientCases: readonly string[]): void {
  expect(statuses).toEqual(allPassed);
  const cases = run.report.suites.flatMap((s) => s.cases);
  expect(cases.map((c) => c.id).sort()).toEqual([...clientCases].sort());
  expect(cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}`)).toEqual([]);
  expect(run.exitCode).toBe(0);
}

/**
 * Asserts that a run judged none of the client requirements (`statuses` gives each `untested`,
 * none passed) and exited 4: a client that showed nothing earns no verdict of conformance, and
 * its fault is not the harness's.
 */
export function expectNoClientRequirementJudged(run: ClientRun, statuses: Record<string, string>, clientRequirements: readonly string[]): void {
  expect(statuses).toEqual(Object.fromEntries(clientRequirements.map((id) => [id, 'untested'])));
  expect(run.exitCode).toBe(4);
}

/**
 * Registers, in the calling `describe`, a run of the client-side cases with a client that sends
 * no request: a script that writes `stderr` to its standard error and exits 3. The run is read
 * once the `beforeAll` is done.
 */
export function silentClientRun<R>(prefix: string, stderr: string, run: (client: string) => Promise<R>, command: (script: string) => string): () => R {
  let tmp: ReturnType<typeof tempDir> | undefined;
  let result: R | undefined;
  beforeAll(async () => {
    tmp = tempDir(prefix);
    const script = join(tmp.dir, 'silent-client.mjs');
    writeFileSync(script, `process.stderr.write(${JSON.stringify(`${stderr}\n`)});\nprocess.exit(3);\n`);
    result = await run(command(script));
  }, 120_000);
  afterAll(() => tmp?.remove());
  return () => {
    if (result === undefined) throw new Error('the silent client did not run');
    return result;
  };
}

/**
 * Asserts that a run with the silent client of {@link silentClientRun} (which wrote `stderr`)
 * ran exactly the client cases and left each with nothing to judge: skipped, never passed, its
 * reason saying the client sent no request and how it ended.
 */
export function expectNothingJudged(run: ClientRun, clientCases: readonly string[], stderr: string): void {
  const cases = run.report.suites.flatMap((s) => s.cases);
  expect(cases.map((c) => c.id).sort()).toEqual([...clientCases].sort());
  const escaped = stderr.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const reason = new RegExp(`^nothing to judge: .*the client sent no request \\(it ended: .*exit status 3; stderr: ${escaped}`, 's');
  for (const c of cases) {
    expect(c.outcome, c.id).toBe('skipped');
    expect(c.reason, c.id).toMatch(reason);
  }
}
