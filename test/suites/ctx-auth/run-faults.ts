import { join } from 'node:path';
import { fromRoot } from '../../../src/paths.js';
import { readReport, runCli } from '../../e2e/cli.js';
import { FAULT_VARIABLE, type CtxFault, type FaultMode } from '../../fixtures/ctx-auth/faults/fault-kit.js';

/** The compiled module the command line loads to plant a fault (test/fixtures/ctx-auth/faults/fault-suite.ts). */
export const FAULT_MODULE = fromRoot('dist', 'test', 'fixtures', 'ctx-auth', 'faults', 'fault-suite.js');

/**
 * One generated input per property case. Each planted fault is a systematic deviation; the one
 * only a generated value shows (verifier-cut-to-43: a verifier longer than 43 characters) is
 * shown by the first pair of this seed, and almost any pair, as 43 is the shortest length allowed.
 */
export const FAULT_RUNS = 1;
export const FAULT_SEED = 7;

/**
 * The SHOULDs the clean reference fails in each mode, by design (reference.test.ts shows it):
 * a fault planted in that mode fails them too.
 */
export const MODE_FAILURES: Readonly<Record<FaultMode, readonly string[]>> = {
  default: [],
  'no-metadata': ['CTX-SRV-METADATA'],
  'no-registration': ['CTX-SRV-DCR'],
};

/** What one run of the server side against a planted fault showed. */
export interface FaultOutcome {
  /** Server requirements failed, sorted. */
  failed: string[];
  /** Server requirements untested, sorted. */
  untested: string[];
  /** Cases that errored for anything but "cannot judge" (a harness fault, never expected). */
  brokenCases: string[];
  exitCode: number | null;
  /** The console output and every case that did not pass, to read when an assertion fails. */
  story: string;
}

/** The outcome a fault must show: its requirement, what it also breaks, and its mode's own failures. */
export function expectedOutcome(fault: CtxFault): { failed: string[]; untested: string[] } {
  const failed = new Set([...MODE_FAILURES[fault.mode ?? 'default'], fault.requirement, ...Object.keys(fault.alsoBreaks ?? {})]);
  return { failed: [...failed].sort(), untested: Object.keys(fault.untested ?? {}).sort() };
}

/** Runs the server-side cases through the command line against the reference with the fault `name` planted. */
export async function runFault(name: string, dir: string): Promise<FaultOutcome> {
  const file = join(dir, `${name}.json`);
  const args = ['run', '--suite-module', FAULT_MODULE, '--suite', 'ctx-auth', '--side', 'server', '--seed', String(FAULT_SEED), '--runs', String(FAULT_RUNS), '--no-color', '--report', `json=${file}`];
  const r = await runCli(args, { cwd: fromRoot(), env: { [FAULT_VARIABLE]: name } });
  const report = readReport(file);
  const server = report.requirements.filter((q) => q.id.startsWith('CTX-SRV-'));
  const cases = report.suites.flatMap((s) => s.cases);
  const unpassed = cases.filter((c) => c.outcome !== 'passed' && !(c as { notApplicable?: boolean }).notApplicable);
  return {
    failed: server.filter((q) => q.status === 'failed').map((q) => q.id).sort(),
    untested: server.filter((q) => q.status === 'untested').map((q) => q.id).sort(),
    brokenCases: cases.filter((c) => c.outcome === 'errored' && !(c.reason ?? '').startsWith('cannot judge')).map((c) => `${c.id}: ${c.errorCode ?? ''} ${c.reason ?? ''}`),
    exitCode: r.code,
    story: [r.stdout, r.stderr, ...unpassed.map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''} ${c.failures.map((f) => `${f.requirement}: ${f.message}`).join(' | ')}`)].join('\n'),
  };
}

/** Runs `work` on every item, at most `width` at a time, keeping the items' order in the results. */
export async function inTurns<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  // one iterator shared by the lanes: each takes the next item when it is free
  const queue = items.entries();
  const lane = async (): Promise<void> => {
    for (const [i, item] of queue) results[i] = await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}
