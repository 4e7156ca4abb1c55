import * as fc from 'fast-check';
import { SpecgateError } from '../../errors.js';
import type { Failure } from '../model.js';
import type { FailureInput } from '../suite-module.js';

type Found = Failure | FailureInput;

/** How one run of a property ended. */
export type LaneResult = { kind: 'passed' } | { kind: 'found'; found: Found[] } | { kind: 'fault'; error: unknown };

/**
 * Runs `value`. `run.lane` says which of the runs at once it is (0 when one at a time);
 * `run.index` is its place among the values when runs go side by side (its record is kept apart
 * until it is committed, see {@link runInLanes}), -1 when it runs in turn (shrinking, a replay, or
 * one at a time): what it records then counts at once.
 */
export type PropertyAttempt<T> = (value: T, run: { lane: number; index: number }) => Promise<Found[]>;

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

/** Of {@link runInLanes}: where the runs side by side ended. */
export interface LanesOutcome {
  /** The first run that did not pass (its index), or -1 when every value passed. */
  first: number;
  /** How that run ended; undefined when every value passed. */
  result: Exclude<LaneResult, { kind: 'passed' }> | undefined;
}

/**
 * Runs `attempt` on `values` with at most `width` runs under way, started in order, each lane
 * taking the next value once its run ends; no run starts after one that did not pass (a finding,
 * a fault, the case's stop). Runs are committed in order (`commit(index)`), each once every run
 * before it has ended and passed, and the first one that did not pass is the last committed: what
 * the runs record counts as the runs in turn would have recorded it, whatever order they end in.
 * Answers as soon as that first run is known and every run before it has ended; runs after it
 * still under way are left to end on their own, uncommitted.
 */
export function runInLanes<T>(values: readonly T[], attempt: PropertyAttempt<T>, width: number, signal: AbortSignal, commit: (index: number, result: LaneResult) => void): Promise<LanesOutcome> {
  return new Promise((done) => {
    const results = new Array<LaneResult | undefined>(values.length);
    let next = 0;
    let committed = 0;
    let over = false;
    /** A run ended without passing: no run starts after that. */
    let stopStarting = false;
    const settleFrom = (): void => {
      while (!over && committed < values.length) {
        const r = results[committed];
        if (!r) return;
        commit(committed, r);
        if (r.kind !== 'passed') {
          over = true;
          return done({ first: committed, result: r });
        }
        committed++;
      }
      if (!over && committed === values.length) {
        over = true;
        done({ first: -1, result: undefined });
      }
    };
    const start = (lane: number): void => {
      if (over || stopStarting || next >= values.length) return;
      const i = next++;
      const ended = (r: LaneResult): void => {
        results[i] = r;
        if (r.kind !== 'passed') stopStarting = true;
        settleFrom();
        start(lane);
      };
      if (signal.aborted) return ended({ kind: 'fault', error: stopError(signal) });
      void settle(attempt, values[i] as T, { lane, index: i }).then(ended);
    };
    if (values.length === 0) return done({ first: -1, result: undefined });
    for (let n = 0; n < Math.min(Math.max(1, width), values.length); n++) start(n);
  });
}

/** What stopped a case: its own reason, or a plain timeout. */
export function stopError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new SpecgateError('SG_CASE_TIMEOUT', 'the case was stopped');
}

async function settle<T>(attempt: PropertyAttempt<T>, value: T, run: { lane: number; index: number }): Promise<LaneResult> {
  try {
    const found = await attempt(value, run);
    return found.length ? { kind: 'found', found } : { kind: 'passed' };
  } catch (error) {
    return { kind: 'fault', error };
  }
}
