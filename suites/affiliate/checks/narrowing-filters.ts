import type { CheckContext } from '../../../src/engine/suite-module.js';
import { LISTS, sharedWalk, walk } from './list-fetch.js';
import type { ListBasis } from './list-findings.js';
import { extraRecords, failure, sample, type Json } from './support.js';

/**
 * The filters of E4 and E5 whose effect no record shows (a lead or conversion record carries no
 * operating system, country group, vertical or late hour): each is judged as accepted (a list
 * answer) and as narrowing (what it lists is records of the unfiltered list over the same window).
 * What it keeps beyond that is not shown, so it is not judged.
 */
export type NarrowingRule = 'filter-os' | 'filter-country-groups' | 'filter-verticals' | 'late-hour';

/** The query parameter of each rule. */
const PARAMS: Readonly<Record<NarrowingRule, string>> = {
  'filter-os': 'os',
  'filter-country-groups': 'countryGroupIds[]',
  'filter-verticals': 'verticals[]',
  'late-hour': 'lateConversionHour',
};

/** Operating systems to filter by when no record offers one (its platform field). */
const COMMON_OS = ['Windows', 'Android', 'iOS'];
/** Country group IDs are not shown: small integers. */
const GROUP_IDS = [1, 2];
/** Late conversion hours: none late, an hour, a day. */
const LATE_HOURS = [0, 1, 24];

/** The vertical IDs the platform's offers carry (`verticals` of `ID`), at most three. */
async function verticalIds(ctx: CheckContext): Promise<string[]> {
  const got = await sharedWalk(ctx, LISTS.offers, {});
  if (!got.ok) return [];
  const ids = got.items.flatMap((o) => {
    const v = (o as Json)['verticals'];
    return Array.isArray(v) ? v.map((x) => (x as Json)['ID']) : [];
  });
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))].slice(0, 3);
}

/** The values a rule filters by. */
async function valuesOf(b: ListBasis, rule: NarrowingRule): Promise<Array<string | number>> {
  switch (rule) {
    case 'filter-os': {
      const seen = b.all.map((r) => r['platform']).filter((p): p is string => typeof p === 'string' && p !== '');
      return [...new Set([...seen, ...COMMON_OS])].slice(0, 3);
    }
    case 'filter-country-groups':
      return GROUP_IDS;
    case 'filter-verticals':
      return verticalIds(b.ctx);
    case 'late-hour':
      return LATE_HOURS;
  }
}

/**
 * One unseen filter of the lead or conversion list: at each value, the list filtered by it over
 * the basis window is answered (a list with its items) and holds only records of the unfiltered
 * list. Returns how many values were judged.
 */
export async function judgeNarrowing(b: ListBasis, rule: NarrowingRule): Promise<number> {
  const param = PARAMS[rule];
  const values = await valuesOf(b, rule);
  for (const value of values) {
    const what = `${b.list.operation} with ${param}=${String(value)}`;
    const got = await walk(b.ctx, b.list, { ...b.window, [param]: value });
    if (!got.ok) {
      b.ctx.fail(failure(`${what}: ${got.why}; a filter the caller may send is answered with a list`, got.res));
      continue;
    }
    const extra = extraRecords(b.all, got.items);
    if (extra.length) b.ctx.fail(failure(`${what} listed ${extra.length} record(s) the unfiltered list over the same window does not hold (first: ${sample(extra, 2)}); a filter only narrows the list`, got.pages[0], { actual: extra.length }));
  }
  return values.length;
}
