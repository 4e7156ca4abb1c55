import type { RunResult } from '../../../src/engine/model.js';
import { loadSuites, run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { referenceStartOptions, startCtxReference } from '../../../reference/ctx-auth/server/reference-target.js';
import { suite } from '../../../suites/ctx-auth/index.js';
import { MODE_OPTIONS, type CtxFault } from '../../fixtures/ctx-auth/faults/fault-kit.js';
import { FAULT_RUNS, FAULT_SEED } from './run-faults.js';
import { blockedBy, failedRequirements as failedOf } from '../../helpers/verdicts.js';
export { story } from '../../helpers/verdicts.js';

/**
 * In-process runs of the ctx-auth suite's server side (the cases judging CTX-SRV-*) against the
 * reference server with a planted fault, started the way the reference target starts the clean
 * one (the run's clock, the same variables, the fault's mode), so the runs differ by the fault.
 */

/** IDs of the server-side cases: those judging CTX-SRV-* requirements only. */
export function serverCaseIds(): string[] {
  const loaded = loadSuites([suite], ['ctx-auth']).suites[0];
  return (loaded?.cases ?? []).filter((c) => c.requirements.every((r) => r.startsWith('CTX-SRV-'))).map((c) => c.id);
}

/** The suite with its reference replaced by the reference carrying `fault`. */
export function faultModule(name: string, fault: CtxFault): SuiteModule {
  return {
    ...suite,
    reference: {
      async start(start) {
        const r = await startCtxReference({ ...referenceStartOptions(start), ...MODE_OPTIONS[fault.mode ?? 'default'], ...fault.options() });
        return { ...r, description: `${r.description}, with the planted fault ${name}: ${fault.description}` };
      },
    },
  };
}

/** Runs the server side in-process against the reference with `fault` planted (the clean reference without one). */
export async function runServerSide(opts: { name?: string; fault?: CtxFault; seed?: number; runs?: number; cases?: string[] } = {}): Promise<RunResult> {
  const module = opts.fault ? faultModule(opts.name ?? 'fault', opts.fault) : suite;
  return run({ modules: [module], suites: ['ctx-auth'], targets: {}, sides: { 'ctx-auth': 'server' }, seed: opts.seed ?? FAULT_SEED, runs: opts.runs ?? FAULT_RUNS, cases: opts.cases ?? serverCaseIds() });
}

/** Server requirements with a failed verdict, sorted. */
export const failedRequirements = (r: RunResult): string[] => failedOf(r, 'CTX-SRV-');

/** Server requirements reported blocked, each with the requirements that blocked it (sorted). */
export const blockedRequirements = (r: RunResult): Record<string, string[]> => blockedBy(r, 'CTX-SRV-');

/** Server requirements left untested (not blocked), each with the reason the run gives. */
export function untestedRequirements(r: RunResult): Record<string, string> {
  return Object.fromEntries(r.requirements.filter((v) => v.id.startsWith('CTX-SRV-') && v.status === 'untested').map((v) => [v.id, v.reason ?? '']));
}

/** Cases that errored (a harness or target fault, never a conformance verdict). */
export function erroredCases(r: RunResult): string[] {
  return r.suites.flatMap((s) => s.cases.filter((c) => c.outcome === 'errored').map((c) => `${c.id}: ${c.errorCode ?? ''} ${c.reason ?? ''}`));
}

