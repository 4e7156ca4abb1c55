import { join } from 'node:path';
import { run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { fromRoot } from '../../../src/paths.js';
import { embeddedDocuments } from '../../../reference/collation/store/embedded.js';
import { suite } from '../../../suites/collation/index.js';
import { readReport, runCli, writeProfile } from '../../e2e/cli.js';
import { loadedSuite, restingOn } from '../../helpers/suite-facts.js';
import { plantedStore, type CollationFault } from '../../fixtures/collation/faults/faults.js';

/** The compiled faulty store (test/fixtures/collation/faults/faulty-store.ts). */
export const FAULTY_STORE = fromRoot('dist', 'test', 'fixtures', 'collation', 'faults', 'faulty-store.js');

/**
 * One generated input per property, from one seed: every planted fault is caught by a fixed
 * word list, and the generated strings of the other cases must not stumble on it by chance.
 */
export const FAULT_RUNS = 1;
export const FAULT_SEED = 7;

/** What one run of the suite against the faulty store showed. */
export interface FaultOutcome {
  failed: string[];
  untested: string[];
  /** Requirements reported blocked, each as `ID <- BY,...` (the requirements that blocked it), sorted. */
  blocked: string[];
  /** Requirements not applicable to the target: none, as an `exec:` store answers every case. */
  notApplicable: string[];
  /** Cases that errored (a harness or protocol fault, never expected). */
  brokenCases: string[];
  exitCode: number | null;
  /** The console output and every case that did not pass, to read when an assertion fails. */
  story: string;
}

/**
 * What a fault blocks, each with why: its `blocks`, and with `blocksResting` every requirement
 * that rests wholly on its requirement as the suite files say (read from the loaded suite).
 */
export function faultBlocks(fault: CollationFault): Record<string, string> {
  if (fault.blocksResting === undefined) return { ...fault.blocks };
  const resting = restingOn(loadedSuite(suite).cases, fault.requirement);
  if (resting.length === 0) throw new Error(`no case of the collation suite rests on ${fault.requirement} any more`);
  return { ...fault.blocks, ...Object.fromEntries(resting.map((id) => [id, fault.blocksResting ?? ''])) };
}

/**
 * The outcome a fault must show: its requirement and what the same deviation breaks by its own
 * wording fail; what it disturbs beyond that is blocked by its requirement alone; what it leaves
 * untested otherwise is named.
 */
export function expectedOutcome(fault: CollationFault): { failed: string[]; blocked: string[]; untested: string[] } {
  const failed = new Set([fault.requirement, ...Object.keys(fault.alsoBreaks ?? {})]);
  return {
    failed: [...failed].sort(),
    blocked: Object.keys(faultBlocks(fault)).map((id) => `${id} <- ${fault.requirement}`).sort(),
    untested: Object.keys(fault.untested ?? {}).sort(),
  };
}

/** Runs the collation suite in this process against a fresh store with `fault` planted (the store the faulty process serves); none: the clean store. */
export async function runFaultHere(fault: string | undefined): Promise<FaultOutcome> {
  const label = fault ?? 'clean';
  const module: SuiteModule = {
    ...suite,
    reference: {
      async start() {
        return { description: fault === undefined ? 'the clean collation store' : `the collation store with ${fault} planted`, vars: {}, documents: embeddedDocuments(plantedStore(fault), label), async stop() {} };
      },
    },
  };
  const r = await run({ modules: [module], suites: ['collation'], targets: {}, seed: FAULT_SEED, runs: FAULT_RUNS, shrink: false });
  return outcomeOf(r, r.summary.exitCode);
}

/** What the outcome is read from: a run's result, or its JSON report. */
interface Verdicts {
  requirements: readonly { id: string; status: string; blockedBy?: readonly string[] | null }[];
  suites: readonly { cases: readonly { id: string; outcome: string; reason?: string | null; failures: readonly { requirement?: string; message: string }[] }[] }[];
}

/** Requirements reported blocked, each with the requirements that blocked it: `ID <- BY,...`, sorted. */
export function blockedRequirements(r: Pick<Verdicts, 'requirements'>): string[] {
  return r.requirements.filter((q) => q.status === 'blocked').map((q) => `${q.id} <- ${[...(q.blockedBy ?? [])].sort().join(',')}`).sort();
}

/** Requirements reported failed, sorted. */
export function failedRequirements(r: Pick<Verdicts, 'requirements'>): string[] {
  return r.requirements.filter((q) => q.status === 'failed').map((q) => q.id).sort();
}

function outcomeOf(r: Verdicts, exitCode: number | null, console = ''): FaultOutcome {
  const cases = r.suites.flatMap((s) => s.cases);
  const having = (status: string): string[] => r.requirements.filter((q) => q.status === status).map((q) => q.id).sort();
  return {
    failed: failedRequirements(r),
    blocked: blockedRequirements(r),
    untested: having('untested'),
    notApplicable: having('not-applicable'),
    brokenCases: cases.filter((c) => c.outcome === 'errored').map((c) => `${c.id}: ${c.reason ?? ''}`),
    exitCode,
    story: [
      console,
      ...cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''} ${c.failures.map((f) => `${f.requirement}: ${f.message}`).join(' | ')}`),
    ].join('\n'),
  };
}

/** Runs the collation suite through the command line against the faulty store process (`exec:`) with `fault` planted (none: the clean store). */
export async function runFault(fault: string | undefined, dir: string): Promise<FaultOutcome> {
  const label = fault ?? 'clean';
  const file = join(dir, `${label}.json`);
  const exec = [process.execPath, FAULTY_STORE, ...(fault === undefined ? [] : ['--fault', fault])];
  const profile = writeProfile(dir, label, { suites: { collation: { database: { exec } } } });
  const args = ['run', '--suite', 'collation', '--target', profile, '--seed', String(FAULT_SEED), '--runs', String(FAULT_RUNS), '--no-shrink', '--no-color', '--report', `json=${file}`];
  const r = await runCli(args, { cwd: dir });
  return outcomeOf(readReport(file), r.code, r.stderr);
}
