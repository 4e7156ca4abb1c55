import { AsyncLocalStorage } from 'node:async_hooks';
import type { Failure } from '../model.js';
import type { HeardAnswer } from './advertised-values.js';
import type { FailureNote } from './advertised-note.js';

/**
 * What one run of a property case holds apart from its other runs: the failures it found, the
 * notes explaining them, the answers a listening check collects, the requirements a typed check
 * touched. Runs side by side share the case's variables, exchanges and evidence, never these.
 */
export interface AttemptState {
  /** The case run the state belongs to (a state reaching another case's code is not its). */
  readonly owner: object;
  /** The run's lane: 0 when the runs go one after another, else which of the runs at once. */
  readonly lane: number;
  /**
   * What the run recorded for the case (exchanges, evidence) while it runs side by side, done
   * once it is committed (every run before it passed); undefined when it counts at once.
   */
  readonly pending: (() => void)[] | undefined;
  readonly failures: Failure[];
  readonly notes: (() => FailureNote | undefined)[];
  listening: HeardAnswer[] | undefined;
  touched: Set<string> | undefined;
}

const current = new AsyncLocalStorage<AttemptState>();

/** A fresh state for a run of `owner`'s property: in `lane`, held until committed when `held`. */
export function attemptState(owner: object, lane: number, held: boolean): AttemptState {
  return { owner, lane, pending: held ? [] : undefined, failures: [], notes: [], listening: undefined, touched: undefined };
}

/** Does what a committed run recorded, in the order it recorded it. */
export function commitAttempt(state: AttemptState): void {
  for (const record of state.pending?.splice(0) ?? []) record();
}

/** Runs `work` as the run `state` describes: what it awaits sees that state. */
export function inAttempt<T>(state: AttemptState, work: () => Promise<T>): Promise<T> {
  return current.run(state, work);
}

/** The state of the property run of `owner` the caller is part of, if any. */
export function currentAttempt(owner: object): AttemptState | undefined {
  const state = current.getStore();
  return state?.owner === owner ? state : undefined;
}

/** The states of runs side by side not yet committed, by their place among the values. */
export class HeldAttempts {
  private readonly byIndex = new Map<number, AttemptState>();

  hold(index: number, state: AttemptState): void {
    this.byIndex.set(index, state);
  }

  /** Commits run `index` (does what it recorded) and answers its state; undefined when none was held. */
  commit(index: number): AttemptState | undefined {
    const state = this.byIndex.get(index);
    this.byIndex.delete(index);
    if (state) commitAttempt(state);
    return state;
  }
}
