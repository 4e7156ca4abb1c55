import type { Failure } from '../model.js';

/**
 * How many failures of one requirement a case keeps. A matcher run over every item of a hostile
 * answer (`$each` over a million items) finds as many failures as items; the requirement fails
 * on the first, and the rest are counted in one closing failure instead of being kept.
 */
export const KEPT_FAILURES = 100;

/** Per list of failures: per requirement, how many were kept and the closing failure counting the rest. */
const tallies = new WeakMap<Failure[], Map<string, { kept: number; more?: { failure: Failure; count: number } }>>();

/**
 * Adds `failure` to `list`, unless the list already holds {@link KEPT_FAILURES} of its
 * requirement: then it is counted in one closing failure of that requirement, which says how
 * many more there were. Counts are kept per list, so a property attempt's own list is capped on
 * its own.
 */
export function keepFailure(list: Failure[], failure: Failure): void {
  let byRequirement = tallies.get(list);
  if (!byRequirement) tallies.set(list, (byRequirement = new Map()));
  let tally = byRequirement.get(failure.requirement);
  if (!tally) byRequirement.set(failure.requirement, (tally = { kept: 0 }));
  if (tally.kept < KEPT_FAILURES) {
    tally.kept++;
    list.push(failure);
    return;
  }
  if (!tally.more) {
    tally.more = { failure: { requirement: failure.requirement, message: '' }, count: 0 };
    list.push(tally.more.failure);
  }
  tally.more.count++;
  tally.more.failure.message = moreText(tally.more.count, failure.requirement);
}

function moreText(count: number, requirement: string): string {
  return `… and ${count} more failure${count === 1 ? '' : 's'} of ${requirement} in this case, not kept (a case keeps its first ${KEPT_FAILURES} per requirement)`;
}
