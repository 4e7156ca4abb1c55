import * as fc from 'fast-check';
import { SpecgateError } from '../../errors.js';
import type { Failure } from '../model.js';
import type { FailureInput } from '../suite-module.js';

type Found = Failure | FailureInput;

/** How one run of a property ended. */
export type LaneResult = { kind: 'passed' } | { kind: 'found'; found: Found[] } | { kind: 'fault'; error: unknown };

/** Runs `value` as run `lane` of the ones going on side by side (0 when one at a time). */
export type PropertyAttempt<T> = (value: T, lane: number) => Promise<Found[]>;

/**
 * The values fast-check tries for `params`, in its order: the examples, then the generated
 * ones. Only generated here, never run; a run with the same parameters (a replay path included)
 * meets the same values at the same places.
 */
export function valuesOf<T>(arb: fc.Arbitrary<T>, params: fc.Parameters<[T]>): T[] {
  const values: T[] = [];
  fc.check(
    fc.property(arb, (v) => {
      values.push(v);
    }),
    params,
  );
  return values;
}

/**
 * Runs `attempt` on `values` with at most `width` runs under way, started in order, each lane
 * taking the next value once its run ends. No run starts after one that did not pass (a finding,
 * a fault, the case's stop), so every run before the first that did not pass has ended when this
 * returns; runs already under way end first. A run not started is undefined in the answer.
 */
export async function runInLanes<T>(values: readonly T[], attempt: PropertyAttempt<T>, width: number, signal: AbortSignal, onEnd: (result: LaneResult) => void): Promise<(LaneResult | undefined)[]> {
  const results = new Array<LaneResult | undefined>(values.length);
  let next = 0;
  let ended = false;
  const lane = async (n: number): Promise<void> => {
    while (!ended && next < values.length) {
      const i = next++;
      const result = signal.aborted ? { kind: 'fault' as const, error: stopError(signal) } : await settle(attempt, values[i] as T, n);
      results[i] = result;
      if (result.kind !== 'passed') ended = true;
      onEnd(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, width), values.length) }, (_, n) => lane(n)));
  return results;
}

/** What stopped a case: its own reason, or a plain timeout. */
export function stopError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new SpecgateError('SG_CASE_TIMEOUT', 'the case was stopped');
}

async function settle<T>(attempt: PropertyAttempt<T>, value: T, lane: number): Promise<LaneResult> {
  try {
    const found = await attempt(value, lane);
    return found.length ? { kind: 'found', found } : { kind: 'passed' };
  } catch (error) {
    return { kind: 'fault', error };
  }
}
