import * as fc from 'fast-check';
import { SpecgateError } from '../../errors.js';
import type { Failure } from '../model.js';
import type { FailureInput } from '../suite-module.js';
import { boundedFinding } from './bounded-failure.js';
import { runInLanes, stopError, valuesOf, type PropertyAttempt } from './property-lanes.js';

export type { PropertyAttempt } from './property-lanes.js';

type Found = Failure | FailureInput;

/** Thrown by a property's predicate so that fast-check shrinks; carries what the run found. */
class Falsified extends Error {
  constructor(readonly failures: Found[]) {
    super(failures.map((f) => f.message).join('; '));
  }
}

export interface PropertyOutcome {
  failed: boolean;
  runs: number;
  path?: string;
  counterexample?: unknown;
  shrinks?: number;
  /** What the shrunk counterexample broke. */
  failures: Found[];
}

/** How far a property has got, for a case that is stopped while it runs (see describeProgress). */
export interface PropertyProgress {
  /** Runs that ended without a finding, before the first failing one. */
  passed: number;
  /** Runs asked for. */
  runs: number;
  /** The 1-based run that found a failure; set once shrinking has begun. */
  failedAt?: number;
}

/**
 * Runs `attempt` on generated values with fast-check (seeded; replayable with `path`) and shrinks
 * a failing value to a minimal one.
 *
 * A harness or target fault (anything but a finding) ends the property at once: a target that
 * has stopped answering, refuses connections or answers garbage would fail every further run the
 * same way, and shrinking through them would cost a timeout each. The first fault is re-thrown,
 * saying at which run it came, so the case errors instead of reporting a false conformance
 * failure. A fault while shrinking a real finding ends the shrinking instead: the smallest
 * failing value found so far is reported, and the failure says why shrinking stopped.
 */
export interface PropertyRunOptions<T> {
  seed: number;
  runs: number;
  path?: string | undefined;
  signal: AbortSignal;
  shrink?: boolean;
  /** Told after every run, so that a case stopped by its timeout can say how far it got. */
  onProgress?: (progress: PropertyProgress) => void;
  /** Inputs tried before the generated ones (edges a few runs might miss). */
  examples?: readonly T[];
  /**
   * Runs that may go on at once (default 1): for a property whose runs do not depend on one
   * another. The values, their order, a failure's path and its shrinking are those of the runs
   * one after another (side-by-side.ts); a replay (`path`) runs alone.
   */
  width?: number;
  /**
   * Runs side by side: told, in the values' order, that a run's record counts (every run before it
   * passed). A run never committed (one after the first that failed) records nothing that counts.
   */
  onCommit?: (index: number) => void;
}

/** How a run in turn is told apart: it has no place among runs side by side, and counts at once. */
const IN_TURN = { lane: 0, index: -1 } as const;

export async function runProperty<T>(arb: fc.Arbitrary<T>, attempt: PropertyAttempt<T>, opts: PropertyRunOptions<T>): Promise<PropertyOutcome> {
  if ((opts.width ?? 1) > 1 && !opts.path) return runSideBySide(arb, attempt, opts);
  return runInTurn(arb, attempt, opts);
}

/** The runs one after another, as fast-check makes them (and a replay of one path). */
async function runInTurn<T>(arb: fc.Arbitrary<T>, attempt: PropertyAttempt<T>, opts: PropertyRunOptions<T>): Promise<PropertyOutcome> {
  const progress: PropertyProgress = { passed: 0, runs: opts.runs };
  let fault: { error: unknown; run: number } | undefined;
  const prop = fc.asyncProperty(arb, async (value) => {
    // After a fault no run reaches the target again: fast-check only walks what is left of its
    // shrink tree, which costs nothing. Before a finding, failing keeps the walk short (it
    // follows one branch down); while shrinking a finding, passing keeps that finding the answer.
    if (fault) {
      if (progress.failedAt === undefined) throw fault.error;
      return;
    }
    try {
      if (opts.signal.aborted) throw stopError(opts.signal);
      const found = await attempt(value, IN_TURN);
      if (found.length) {
        progress.failedAt ??= progress.passed + 1;
        // bounded now: fast-check holds the error of the smallest failure while it shrinks
        throw new Falsified(found.map(boundedFinding));
      }
      if (progress.failedAt === undefined) progress.passed++;
    } catch (e) {
      if (e instanceof Falsified) throw e;
      fault = { error: e, run: progress.passed + 1 };
      if (progress.failedAt === undefined) throw e;
    } finally {
      opts.onProgress?.({ ...progress });
    }
  });
  const params = checkParams(opts);
  if (opts.path) params.path = opts.path;
  // --no-shrink: report the first failing input (still replayable by its path), for fast gates
  if (opts.shrink === false) params.endOnFailure = true;
  const details = await fc.check(prop, params);
  if (fault && progress.failedAt === undefined) throw located(fault.error, fault.run, opts.runs);
  if (!details.failed) return { failed: false, runs: details.numRuns, failures: [] };
  const err: unknown = details.errorInstance;
  if (!(err instanceof Falsified)) throw err;
  const failures = fault ? err.failures.map((f, i) => (i === 0 ? { ...f, message: `${f.message} (shrinking stopped early: ${errorMessage(fault?.error)})` } : f)) : err.failures;
  return {
    failed: true,
    runs: details.numRuns,
    path: details.counterexamplePath ?? undefined,
    counterexample: details.counterexample?.[0],
    shrinks: details.numShrinks,
    failures,
  };
}

/**
 * The runs side by side (`width` at once), then, for a finding, the shrinking one run after
 * another from the first failing run's path, as the runs in turn would have done: the same
 * values, the same failure reported, replayable with the same path. The first failing run is not
 * made again: its finding stands for the path's first run.
 */
async function runSideBySide<T>(arb: fc.Arbitrary<T>, attempt: PropertyAttempt<T>, opts: PropertyRunOptions<T>): Promise<PropertyOutcome> {
  const values = valuesOf(arb, checkParams(opts));
  const progress: PropertyProgress = { passed: 0, runs: opts.runs };
  const { first, result } = await runInLanes(values, attempt, opts.width ?? 1, opts.signal, (index, r) => {
    opts.onCommit?.(index);
    if (r.kind === 'passed') progress.passed++;
    else if (r.kind === 'found') progress.failedAt = index + 1;
    opts.onProgress?.({ ...progress });
  });
  if (!result) return { failed: false, runs: values.length, failures: [] };
  if (result.kind === 'fault') throw located(result.error, first + 1, opts.runs);
  const failedAt = { passed: first, runs: opts.runs, failedAt: first + 1 };
  // the value the failing run saw (a value the run changed, or a context it logged into, as it left it)
  const seen = values[first];
  if (opts.shrink === false) return { failed: true, runs: first + 1, path: String(first), counterexample: seen, shrinks: 0, failures: result.found.map(boundedFinding) };
  let made = false;
  const again: PropertyAttempt<T> = (value, run) => {
    if (made) return attempt(value, run);
    made = true;
    return Promise.resolve(result.found);
  };
  const shrunk = await runInTurn(arb, again, { ...opts, path: String(first), width: 1, onProgress: () => opts.onProgress?.(failedAt) });
  return { ...shrunk, runs: first + 1, ...(shrunk.shrinks ? {} : { counterexample: seen }) };
}

/** fast-check's parameters for a property's runs (a replay adds its path). */
function checkParams<T>(opts: PropertyRunOptions<T>): fc.Parameters<[T]> {
  const params: fc.Parameters<[T]> = { seed: opts.seed, numRuns: opts.runs };
  if (opts.examples?.length) params.examples = opts.examples.map((e): [T] => [e]);
  return params;
}

/**
 * A few words on how far a property got, for the message of a case stopped by its timeout:
 * " after 2 of 1000 property runs", or that it was shrinking a failure (which --no-shrink shows).
 */
export function describeProgress(p: PropertyProgress | undefined): string {
  if (!p) return '';
  if (p.failedAt !== undefined)
    return ` while shrinking a failure found at property run ${p.failedAt} of ${p.runs} (rerun with --no-shrink to see the unshrunk failing input)`;
  return ` after ${p.passed} of ${p.runs} property runs`;
}

/** The fault of run `run`, saying where the property stopped (a case's own stop goes unchanged). */
function located(error: unknown, run: number, runs: number): unknown {
  if (!(error instanceof SpecgateError) || error.code === 'SG_CASE_TIMEOUT') return error;
  const before = run === 1 ? 'no run before it' : `the ${run - 1} run${run === 2 ? '' : 's'} before it passed`;
  return new SpecgateError(
    error.code,
    `${error.message} (property run ${run} of ${runs}, ${before}; the property stopped there)`,
    { ...(error.detail ?? {}), propertyRun: run, propertyRuns: runs },
    { cause: error },
  );
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
