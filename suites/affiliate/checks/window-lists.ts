import { defineCheck } from '../../../src/engine/checks/contract.js';
import { SpecgateError } from '../../../src/errors.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { LISTS, MAX_PAGE, page, sharedWalk, walk, WALK_PAGE, type ListShape } from './list-fetch.js';
import { recordsOf, type ListBasis } from './list-findings.js';
import { dateTime, failure, notErrorAnswer, recordKey, sample, windowOf, type Json } from './support.js';
import { offerIds } from './offer-lists.js';
import { fieldFilterProperties, offerFilterProperty } from './filter-properties.js';
import { judgeNarrowing, type NarrowingRule } from './narrowing-filters.js';
import { pagingProperty, selectedDaysProperty, timeOfDayProperty, windowProperty } from './window-properties.js';

/** The rules of the leads and conversions lists (E4, E5 and Limits) one case each judges. */
type Rule = 'window' | 'time-of-day' | 'selected-days' | FieldRule | NarrowingRule | 'filter-offers' | 'skip' | 'paging' | 'limit' | 'ids-unique' | 'match-leads';

/** The field filters of E4 and E5, one rule a row of their tables (custom1 .. custom5 is one row). */
const FIELD_RULES = {
  'filter-custom': ['custom1', 'custom2', 'custom3', 'custom4', 'custom5'],
  'filter-customer': ['customerID'],
  'filter-sale-status': ['saleStatus'],
  'filter-has-ftd': ['hasFTD'],
} as const;
type FieldRule = keyof typeof FIELD_RULES;
/** The field rules of the lead list only (a conversion record carries no saleStatus or hasFTD). */
const LEAD_ONLY: readonly FieldRule[] = ['filter-sale-status', 'filter-has-ftd'];
/** The filters judged as accepted and narrowing only, and the list whose table has each. */
const NARROWING: Readonly<Record<NarrowingRule, ReadonlyArray<Args['operation']>>> = {
  'filter-os': ['leads', 'conversions'],
  'filter-country-groups': ['leads'],
  'filter-verticals': ['leads'],
  'late-hour': ['conversions'],
};

interface Args {
  operation: 'leads' | 'conversions';
  rule: Rule;
}

type Fail = (message: string, res?: CheckResponse, more?: { expected?: unknown; actual?: unknown }) => void;

/** An offer ID no offer has, for filters that must then list nothing. */
export const UNKNOWN_ID = 2147483646;

/** A filter by something no record has lists nothing, or is refused. */
async function judgeUnknown(ctx: CheckContext, list: ListShape, query: Record<string, unknown>, fail: Fail): Promise<void> {
  const got = await page(ctx, list, { ...query, page: 1, [list.limit]: WALK_PAGE });
  if (!got.ok) {
    const why = notErrorAnswer(got.res, `${list.operation} ${JSON.stringify(query)}`);
    if (why) fail(`${got.why}; a filter by an ID nothing has lists nothing or is refused`, got.res);
  } else if (got.items.length) fail(`${list.operation} ${JSON.stringify(query)} (an ID no offer has) listed ${got.items.length} record(s); expected none`, got.res, { actual: got.items.length });
}

/** The window the rules compare lists over, and the target's own window it was cut from. */
interface StableWindow {
  window: { fromDate: string; toDate: string };
  given: { fromDate: string; toDate: string };
  /** How many records the target's own window holds. */
  givenCount: number;
}

/**
 * The window the rules compare lists over: from the target's from_date to the date of the record
 * nine tenths of the way through its window. Leads registered while the suite runs (other cases
 * register some) are dated now, after that, so no list of one rule changes between its requests.
 * The walk of the target's window, and of the window cut from it, are shared by the cases that
 * read them (sharedWalk): a walk made earlier in the run cuts the window as well as the case's own.
 */
async function stableWindow(ctx: CheckContext, list: ListShape): Promise<({ ok: true } & StableWindow) | { ok: false; why: string; res: CheckResponse | undefined; none?: true }> {
  const given = windowOf(ctx);
  const got = await sharedWalk(ctx, list, given);
  if (!got.ok) return { ok: false, why: `${got.why} (the target's window ${given.fromDate} to ${given.toDate})`, res: got.res };
  const dates = recordsOf(got.items).map((r) => dateTime(r[list.date as string])).filter((d): d is string => d !== undefined).sort();
  if (dates.length < 10) return { ok: false, why: `the target's window ${given.fromDate} to ${given.toDate} holds ${dates.length} ${list.operation} with a ${String(list.date)} of the form YYYY-MM-DD HH:mm:ss; the rules need at least 10`, res: got.pages[0], none: true };
  return { ok: true, window: { fromDate: given.fromDate, toDate: dates[Math.floor(dates.length * 0.9)] as string }, given, givenCount: got.items.length };
}

/**
 * `affiliate.windowList`: one rule of the lead or conversion list judged against the platform's
 * own unfiltered list over the target's window (from_date to to_date). The window, time-of-day,
 * weekday, filter (one row of the table a case) and paging rules are fast-check properties over generated inputs (windows,
 * time ranges, weekday sets, a record's value, offer sets, page sizes; see window-properties.ts
 * and filter-properties.ts), shrunk on failure; the filters no record shows (os, country groups,
 * verticals, late hour) are judged accepted and narrowing (narrowing-filters.ts); skip, the 1000 limit, unique IDs and
 * conversions matching leads are judged once.
 */
export const windowList = defineCheck<Args>({
  description: 'one rule of the lead or conversion list (window, time of day, weekdays, one row of filters, paging, 1000 limit, IDs) judged against the platform\'s own unfiltered list',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['operation', 'rule'],
    properties: {
      operation: { enum: ['leads', 'conversions'] },
      rule: { enum: ['window', 'time-of-day', 'selected-days', ...Object.keys(FIELD_RULES), ...Object.keys(NARROWING), 'filter-offers', 'skip', 'paging', 'limit', 'ids-unique', 'match-leads'] },
    },
  },
  judges: 'case',
  async run(ctx, args) {
    const list = LISTS[args.operation];
    const dateField = list.date as string;
    const fail: Fail = (message, res, more = {}) => ctx.fail(failure(message, res, more));
    // too few records to judge by is no evidence, never a failure: the case's rule is untested with the reason
    const none = (reason: string): void => {
      for (const id of ctx.requirements) ctx.noEvidence(id, reason);
    };
    const win = await stableWindow(ctx, list);
    if (!win.ok) return win.none ? none(win.why) : fail(win.why, win.res);
    const full = await sharedWalk(ctx, list, win.window);
    if (!full.ok) return fail(`${full.why} (the window ${win.window.fromDate} to ${win.window.toDate})`, full.res);
    const all = recordsOf(full.items);
    const dateOf = (r: Json): string | undefined => dateTime(r[dateField]);
    const basis: ListBasis = { ctx, list, window: win.window, all, dateOf };
    const input: RuleInput = { args, basis, win, firstRes: full.pages[0], fail, none };
    switch (args.rule) {
      case 'window':
        if (all.length < 3) return none(`the platform lists ${all.length} ${args.operation} from ${win.window.fromDate} to ${win.window.toDate}; the window rule needs at least 3`);
        return windowProperty(basis);
      case 'time-of-day':
        return timeOfDayProperty(basis);
      case 'selected-days':
        return selectedDaysProperty(basis);
      case 'filter-custom':
      case 'filter-customer':
      case 'filter-sale-status':
      case 'filter-has-ftd':
        return judgeFieldFilters(input, args.rule);
      case 'filter-os':
      case 'filter-country-groups':
      case 'filter-verticals':
      case 'late-hour':
        return judgeUnseenFilter(input, args.rule);
      case 'filter-offers':
        return judgeOfferFilter(input);
      case 'skip':
        return judgeSkip(input);
      case 'paging':
        return pagingProperty(basis);
      case 'limit':
        return judgeLimit(input);
      case 'ids-unique':
        return judgeIdsUnique(input);
      case 'match-leads':
        return judgeMatchLeads(input);
    }
  },
});

/** What the rule of one case is judged with: the platform's own list over the stable window, and how the case reports. */
interface RuleInput {
  args: Args;
  basis: ListBasis;
  win: StableWindow;
  /** The first page of the unfiltered list, for findings about the list as a whole. */
  firstRes: CheckResponse | undefined;
  fail: Fail;
  /** Too few records to judge by: the case's requirements are untested with `reason`. */
  none(reason: string): void;
}

/** One row's field filters keep exactly the records that match (a property per field the window's records carry). */
async function judgeFieldFilters({ args, basis, none }: RuleInput, rule: FieldRule): Promise<void> {
  if (args.operation !== 'leads' && LEAD_ONLY.includes(rule)) throw new SpecgateError('SG_SUITE_SCHEMA', `affiliate.windowList: rule ${rule} is a filter of the lead list (E4) only; use it with operation: leads`);
  const fields = FIELD_RULES[rule];
  const probed = await fieldFilterProperties(basis, fields);
  if (!probed.length) none(`no ${args.operation} record of the window holds a value of ${fields.join(', ')} to filter by`);
}

/** A filter no record shows the effect of: accepted, and narrowing the list (narrowing-filters.ts). */
async function judgeUnseenFilter({ args, basis, none }: RuleInput, rule: NarrowingRule): Promise<void> {
  if (!NARROWING[rule].includes(args.operation)) throw new SpecgateError('SG_SUITE_SCHEMA', `affiliate.windowList: rule ${rule} is a filter of ${NARROWING[rule].join(' and ')} only`);
  const judged = await judgeNarrowing(basis, rule);
  if (!judged) none(`no value to filter ${args.operation} by for ${rule} (the offers carry no vertical)`);
}

/** The offer filter lists nothing for an offer no one has, and exactly the matching records for real ones (a property). */
async function judgeOfferFilter({ args, basis, win, fail, none }: RuleInput): Promise<void> {
  const { ctx, list } = basis;
  const name = args.operation === 'leads' ? 'offerIDs[]' : 'campaignIDs[]';
  const ids = await offerIds(ctx, fail);
  if (!ids) return;
  if (!ids.length) return none('the offer list is empty: no offer to filter by');
  await judgeUnknown(ctx, list, { ...win.window, [name]: UNKNOWN_ID }, fail);
  return offerFilterProperty(basis, name, ids);
}

/** skip=0 (real leads) and skip=1 (test leads) list no lead in common. */
async function judgeSkip({ basis, fail }: RuleInput): Promise<void> {
  const { ctx, list, window } = basis;
  const real = await walk(ctx, list, { ...window, skip: 0 });
  if (!real.ok) fail(real.why, real.res);
  const test = await walk(ctx, list, { ...window, skip: 1 });
  if (!test.ok) fail(test.why, test.res);
  if (!real.ok || !test.ok) return;
  const realKeys = new Set(real.items.map(recordKey));
  const both = test.items.map(recordKey).filter((k) => realKeys.has(k));
  if (both.length) fail(`skip=0 (real leads) and skip=1 (test leads) both list ${both.length} lead(s) (first: ${sample(both, 2)})`, test.pages[0]);
}

/** A page of the maximum size is accepted and full; one over it holds at most the maximum, or is refused. */
async function judgeLimit({ args, basis, win, fail, none }: RuleInput): Promise<void> {
  const { ctx, list } = basis;
  // the target's whole window: the one most likely to hold more than 1000, so a page over the maximum shows
  const first = await page(ctx, list, { ...win.given, page: 1, [list.limit]: MAX_PAGE });
  if (!first.ok) return fail(`${first.why}; ${list.limit}=${MAX_PAGE} is the maximum and must be accepted`, first.res);
  // leads registered meanwhile only add to the window, never below a full page
  const want = Math.min(MAX_PAGE, win.givenCount);
  if (first.items.length < want || first.items.length > MAX_PAGE) fail(`${list.limit}=${MAX_PAGE} answered ${first.items.length} ${args.operation}; the window ${win.given.fromDate} to ${win.given.toDate} holds ${win.givenCount}, so expected ${want}`, first.res, { expected: want, actual: first.items.length });
  if (win.givenCount <= MAX_PAGE) return none(`the window ${win.given.fromDate} to ${win.given.toDate} holds ${win.givenCount} ${args.operation}; a page over the maximum can be judged only with more than ${MAX_PAGE}`);
  const over = await page(ctx, list, { ...win.given, page: 1, [list.limit]: MAX_PAGE + 1 });
  if (over.ok && over.items.length > MAX_PAGE) fail(`${list.limit}=${MAX_PAGE + 1} answered ${over.items.length} ${args.operation}; at most ${MAX_PAGE} a page`, over.res, { expected: MAX_PAGE, actual: over.items.length });
  if (!over.ok) {
    const why = notErrorAnswer(over.res, `${list.limit}=${MAX_PAGE + 1}`);
    if (why) fail(`${why}: above the maximum, expected at most 1000 records or a refusal`, over.res);
  }
}

/** Every listed lead carries its own leadRequestIDEncoded string. */
function judgeIdsUnique({ basis, firstRes, fail }: RuleInput): void {
  const ids = basis.all.map((r) => r['leadRequestIDEncoded']);
  const seen = new Map<string, number>();
  for (const id of ids) if (typeof id === 'string') seen.set(id, (seen.get(id) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  if (twice.length) fail(`${twice.length} leadRequestIDEncoded value(s) are carried by more than one lead: ${twice.slice(0, 5).join(', ')}`, firstRes, { actual: twice.slice(0, 20) });
  const missing = ids.filter((id) => typeof id !== 'string' || id === '').length;
  if (missing) fail(`${missing} lead(s) carry no leadRequestIDEncoded string`, firstRes);
}

/** Every conversion names a listed lead, and is deposited no earlier than that lead signed up. */
async function judgeMatchLeads({ basis, win, firstRes, fail, none }: RuleInput): Promise<void> {
  const { ctx, all, dateOf } = basis;
  // every lead a conversion can belong to: signed up before the window's end
  const leads = await walk(ctx, LISTS.leads, { fromDate: '2000-01-01 00:00:00', toDate: win.window.toDate });
  if (!leads.ok) return fail(leads.why, leads.res);
  const signup = new Map<string, string | undefined>();
  for (const l of recordsOf(leads.items)) if (typeof l['leadRequestIDEncoded'] === 'string') signup.set(l['leadRequestIDEncoded'], dateTime(l['signupDate']));
  const orphans: string[] = [];
  const early: string[] = [];
  for (const c of all) {
    const id = c['leadRequestIDEncoded'];
    if (typeof id !== 'string' || !signup.has(id)) {
      orphans.push(String(id));
      continue;
    }
    const s = signup.get(id);
    const d = dateOf(c);
    if (s !== undefined && d !== undefined && d < s) early.push(`${id} (deposit ${d}, signup ${s})`);
  }
  if (orphans.length) fail(`${orphans.length} conversion(s) name a leadRequestIDEncoded no listed lead has, letter case included (first: ${orphans.slice(0, 3).join(', ')})`, firstRes, { actual: orphans.slice(0, 10) });
  if (early.length) fail(`${early.length} conversion(s) are deposited before their lead signed up (first: ${early.slice(0, 2).join('; ')})`, firstRes);
  if (!all.length) return none(`the window ${win.window.fromDate} to ${win.window.toDate} holds no conversion to match`);
  ctx.observed(undefined, all.length);
}
