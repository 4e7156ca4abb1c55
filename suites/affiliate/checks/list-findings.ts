import type { CheckContext, CheckResponse, FailureInput } from '../../../src/engine/suite-module.js';
import { walk, WALK_PAGE, type ListShape } from './list-fetch.js';
import { failure, multisetDiff, sample, type Json } from './support.js';

/** The records among a list's items (anything else is left to the shape rules). */
export const recordsOf = (items: unknown[]): Json[] => items.filter((i): i is Json => !!i && typeof i === 'object' && !Array.isArray(i));

/**
 * What a generated run of a list rule works with: the target's own unfiltered list over the
 * window the rules compare in, read once per case and shared by every run.
 */
export interface ListBasis {
  ctx: CheckContext;
  list: ListShape;
  window: { fromDate: string; toDate: string };
  all: Json[];
  /** The date a window bounds, in the spec's format, of a record. */
  dateOf(record: Json): string | undefined;
}

/**
 * Why a filtered list is not exactly the records of the unfiltered one that match, compared as
 * multisets; undefined when it is.
 */
export function exactFinding(what: string, expected: readonly Json[], got: readonly unknown[], res: CheckResponse | undefined): FailureInput | undefined {
  const { missing, extra } = multisetDiff(expected, got);
  if (extra.length) return failure(`${what} listed ${extra.length} record(s) that the unfiltered list does not hold as matching (first: ${sample(extra, 2)})`, res, { expected: expected.length, actual: got.length });
  if (missing.length) return failure(`${what} left out ${missing.length} matching record(s) of the unfiltered list (first: ${sample(missing, 2)})`, res, { expected: expected.length, actual: got.length });
  return undefined;
}

/**
 * Walks the list with `query` added to the basis window and compares the walk with `expected`;
 * a walk that breaks off is the finding itself.
 */
export async function filteredFinding(b: ListBasis, what: string, query: Record<string, unknown>, expected: readonly Json[]): Promise<FailureInput | undefined> {
  const got = await walk(b.ctx, b.list, { ...b.window, ...query }, WALK_PAGE);
  if (!got.ok) return failure(`${what}: ${got.why}`, got.res);
  return exactFinding(what, expected, got.items, got.pages[0]);
}

/** Runs for a property one run of which costs a walk or a few: the run's number, capped. */
export function cappedRuns(ctx: CheckContext, cap: number): number {
  return Math.max(1, Math.min(ctx.runs, cap));
}

/**
 * A property's predicate that judges each distinct input once: within a case the lists do not
 * change, so an input fast-check generates again (a small domain such as hasFTD or the postback
 * sizes, or a step of shrinking) gets the verdict it had, without asking the target again.
 */
export function onceEach<T>(predicate: (value: T) => Promise<FailureInput | undefined>): (value: T) => Promise<FailureInput | undefined> {
  const verdicts = new Map<string, Promise<FailureInput | undefined>>();
  return (value) => {
    const key = JSON.stringify(value);
    let verdict = verdicts.get(key);
    if (!verdict) {
      verdict = predicate(value);
      verdicts.set(key, verdict);
    }
    return verdict;
  };
}
