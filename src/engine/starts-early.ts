import type { CaseDef } from './model.js';

// A module of its own, apart from the runtime, as exclusive-group.ts is: a tag the scheduler reads.

/**
 * The tag of a case that is long and mostly waits (a process it launches, a browser it drives):
 * it starts before the untagged cases that run beside any other, so that its waits overlap their
 * work instead of being the run's tail.
 */
export const STARTS_EARLY = 'starts-early';

/** Whether a case is tagged {@link STARTS_EARLY}. */
export function startsEarly(def: CaseDef): boolean {
  return def.tags !== undefined && def.tags.includes(STARTS_EARLY);
}

/**
 * The order to start `indices` (of `cases`) in: the cases tagged {@link STARTS_EARLY} first, each
 * part in its own order. The same array when no case is tagged.
 */
export function earlyFirst(cases: readonly CaseDef[], indices: number[]): number[] {
  const early = indices.filter((i) => startsEarly(cases[i] as CaseDef));
  if (!early.length) return indices;
  return [...early, ...indices.filter((i) => !startsEarly(cases[i] as CaseDef))];
}
