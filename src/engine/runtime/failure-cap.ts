import type { Assertion, Failure } from '../model.js';
import { cutText } from '../../targets/text-cut.js';
import { KEPT_MESSAGE_CHARS } from './bounded-failure.js';

/**
 * How many failed assertions of one requirement a case keeps. A matcher run over every item of
 * a hostile answer (`$each` over a million items) finds as many as items; the requirement fails
 * on the first, and the rest are counted in its failure's message instead of being kept.
 */
export const KEPT_FAILURES = 100;

/** Characters of each assertion's message the summing-up message of a requirement's failure quotes. */
const QUOTED_CHARS = 300;

/** Per list of failures: per requirement, where its failure is, its summing-up message, and how many assertions were not kept. */
const tallies = new WeakMap<Failure[], Map<string, { at: number; summary: string; more: number }>>();

/**
 * Adds `failure` to `list`, one failure per requirement: a second failed assertion of a
 * requirement joins the first one's failure (listed in `assertions`, the message summing them
 * up), and past {@link KEPT_FAILURES} of them the rest are only counted. Counts are kept per
 * list, so a property attempt's own list is grouped and capped on its own.
 */
export function keepFailure(list: Failure[], failure: Failure): void {
  let byRequirement = tallies.get(list);
  if (!byRequirement) tallies.set(list, (byRequirement = new Map()));
  const tally = byRequirement.get(failure.requirement);
  if (!tally) {
    byRequirement.set(failure.requirement, { at: list.length, summary: '', more: 0 });
    list.push(failure);
    return;
  }
  const entry = list[tally.at] as Failure;
  const assertions = entry.assertions ?? [assertionOf(entry)];
  if (assertions.length >= KEPT_FAILURES) {
    // the entry is the grouped failure made below, this module's own: counted in place, no copy per assertion
    tally.more++;
    entry.message = `${tally.summary}${moreText(tally.more)}`;
    return;
  }
  assertions.push(assertionOf(failure));
  tally.summary = summary(assertions);
  const grouped: Failure = { requirement: entry.requirement, message: tally.summary, assertions };
  const exchange = assertions[0]?.exchange;
  if (exchange) grouped.exchange = exchange;
  const property = entry.property ?? failure.property;
  if (property) grouped.property = property;
  list[tally.at] = grouped;
}

/** What one failure asserted, without its requirement. */
function assertionOf(f: Failure): Assertion {
  const a: Assertion = { message: f.message };
  if (f.expected !== undefined) a.expected = f.expected;
  if (f.actual !== undefined) a.actual = f.actual;
  if (f.detail !== undefined) a.detail = f.detail;
  if (f.exchange) a.exchange = f.exchange;
  return a;
}

/** "3 failed assertions: 1) …; 2) …; 3) …", each quoted up to {@link QUOTED_CHARS}. */
function summary(assertions: readonly Assertion[]): string {
  const quoted = assertions.map((a, i) => `${i + 1}) ${cutText(a.message, QUOTED_CHARS)}`).join('; ');
  return cutText(`${assertions.length} failed assertions: ${quoted}`, KEPT_MESSAGE_CHARS);
}

function moreText(count: number): string {
  return `; … and ${count} more, not kept (a case keeps its first ${KEPT_FAILURES} per requirement)`;
}
