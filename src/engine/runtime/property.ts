import * as fc from 'fast-check';
import type { Failure } from '../model.js';
import type { FailureInput } from '../suite-module.js';

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

/**
 * Runs `attempt` on generated values with fast-check (seeded; replayable with `path`) and shrinks
 * a failing value to a minimal one. A harness or target fault (anything but a finding) is
 * re-thrown after shrinking, so the case errors instead of reporting a false conformance failure.
 */
export async function runProperty<T>(
  arb: fc.Arbitrary<T>,
  attempt: (value: T) => Promise<Found[]>,
  opts: { seed: number; runs: number; path?: string | undefined; signal: AbortSignal; shrink?: boolean },
): Promise<PropertyOutcome> {
  const prop = fc.asyncProperty(arb, async (value) => {
    if (opts.signal.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted');
    const found = await attempt(value);
    if (found.length) throw new Falsified(found);
  });
  const params: fc.Parameters<[T]> = { seed: opts.seed, numRuns: opts.runs };
  if (opts.path) params.path = opts.path;
  // --no-shrink: report the first failing input (still replayable by its path), for fast gates
  if (opts.shrink === false) params.endOnFailure = true;
  const details = await fc.check(prop, params);
  if (!details.failed) return { failed: false, runs: details.numRuns, failures: [] };
  const err: unknown = details.errorInstance;
  if (!(err instanceof Falsified)) throw err;
  return {
    failed: true,
    runs: details.numRuns,
    path: details.counterexamplePath ?? undefined,
    counterexample: details.counterexample?.[0],
    shrinks: details.numShrinks,
    failures: err.failures,
  };
}
