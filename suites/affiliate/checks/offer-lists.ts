import fc from 'fast-check';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { LISTS, MAX_PAGE, page, sharedWalk, walk, WALK_PAGE, type ListShape } from './list-fetch.js';
import { onceEach } from './list-findings.js';
import { extraRecords, failure, multisetDiff, notErrorAnswer, recordKey, sample, type Json } from './support.js';

type Fail = (message: string, res?: CheckResponse, more?: { expected?: unknown; actual?: unknown }) => void;

/** The rules of the offer list (E3 and Limits) one case each judges. */
type Rule = 'name' | 'campaign' | 'campaigns' | 'external' | 'paging' | 'limit';

/** Runs of the paging property when the run does not say: a run walks the whole list. */
const PAGING_RUNS = 15;

/** A whitelabel ID no whitelabel has. */
const UNKNOWN_ID = 2147483646;

/**
 * Whitelabel IDs to filter offers by. Offer items do not name their whitelabel, but postback
 * records do (whitelabelID): the platform's own IDs, with a few small numbers after them.
 */
async function whitelabelIds(ctx: CheckContext): Promise<number[]> {
  const got = await sharedWalk(ctx, LISTS.postbacks, {});
  const seen = got.ok ? got.items.map((p) => Number((p as Json)['whitelabelID'])).filter((n) => Number.isInteger(n) && n > 0) : [];
  return [...new Set([...seen, 1, 2, 3])].slice(0, 8);
}

const idOf = (o: unknown): string => recordKey(o && typeof o === 'object' ? (o as Json)['id'] : o);

/** The IDs of the platform's offers (for filters of other lists by offer), or undefined after a failure. */
export async function offerIds(ctx: CheckContext, fail: Fail): Promise<number[] | undefined> {
  const got = await sharedWalk(ctx, LISTS.offers, {});
  if (!got.ok) {
    fail(got.why, got.res);
    return undefined;
  }
  return got.items.map((o) => Number((o as Json)['id'])).filter(Number.isInteger);
}

/**
 * `affiliate.offerList`: one rule of the offer list judged against the platform's own unfiltered
 * list: search[name] keeps offers whose name holds the one asked for, search[campaignId] and
 * search[campaignIds][] list offers of the list (none for an unknown whitelabel, and one ID the
 * same through both), search[isExternal] splits the list in two, a walk of a generated
 * itemPerPage (1 to 1000, a property shrunk to the smallest size that shows a fault) visits
 * each offer once with data.page and data.totalItems right, and a page holds at most 1000.
 */
export const offerList = defineCheck<{ rule: Rule }>({
  description: "one rule of the offer list (name, whitelabel and external filters, paging, 1000 limit) judged against the platform's own unfiltered list",
  args: { type: 'object', additionalProperties: false, required: ['rule'], properties: { rule: { enum: ['name', 'campaign', 'campaigns', 'external', 'paging', 'limit'] } } },
  judges: 'case',
  async run(ctx, args) {
    const fail: Fail = (message, res, more = {}) => ctx.fail(failure(message, res, more));
    const list = LISTS.offers;
    const full = await sharedWalk(ctx, list, {});
    if (!full.ok) return fail(full.why, full.res);
    const all = full.items;
    const filtered = async (query: Record<string, unknown>): Promise<{ items: unknown[]; res: CheckResponse | undefined } | undefined> => {
      const got = await walk(ctx, list, query);
      if (!got.ok) {
        fail(got.why, got.res);
        return undefined;
      }
      return { items: got.items, res: got.pages[0] };
    };
    const subset = (what: string, items: unknown[], res: CheckResponse | undefined): void => {
      const extra = extraRecords(all, items);
      if (extra.length) fail(`${what} listed ${extra.length} offer(s) the unfiltered list does not hold (first: ${sample(extra, 2)})`, res);
    };
    const input: RuleInput = { ctx, list, all, fail, filtered, subset };
    switch (args.rule) {
      case 'name':
        return judgeNameFilter(input);
      case 'campaign':
      case 'campaigns':
        return judgeWhitelabelFilter(input, args.rule);
      case 'external':
        return judgeExternalFilter(input);
      case 'paging': {
        // every run walks the whole list (a few dozen offers): one page of one offer costs a request each
        await ctx.property(
          fc.integer({ min: 1, max: MAX_PAGE }),
          onceEach(async (size) => {
            const got = await walk(ctx, list, {}, size);
            const what = `a walk of itemPerPage=${size}`;
            if (!got.ok) return failure(`${what}: ${got.why}`, got.res);
            const { missing, extra } = multisetDiff(all, got.items);
            if (missing.length || extra.length) return failure(`${what} (${got.pages.length} pages) missed ${missing.length} offer(s) and repeated or added ${extra.length} (first: ${sample([...missing, ...extra], 1)})`, got.pages[0], { expected: all.length, actual: got.items.length });
            for (const [i, res] of got.pages.entries()) {
              const p = (res.body as { data?: { page?: unknown } } | undefined)?.data?.page;
              if (Number(p) !== i + 1) return failure(`${what}: page ${i + 1} answered data.page ${String(p)}`, res, { expected: i + 1, actual: p });
              const n = (res.body as { data?: { items?: unknown } } | undefined)?.data?.items;
              if (Array.isArray(n) && n.length > size) return failure(`${what}: page ${i + 1} holds ${n.length} offers`, res, { expected: size, actual: n.length });
            }
            if (got.total !== all.length) return failure(`${what}: data.totalItems says ${String(got.total)}, but the list holds ${all.length} offers`, got.pages[0], { expected: all.length, actual: got.total });
            return undefined;
          }),
          { runs: Math.max(1, Math.min(ctx.runs, PAGING_RUNS)), label: 'offers paging' },
        );
        return;
      }
      case 'limit': {
        const max = await page(ctx, list, { page: 1, itemPerPage: MAX_PAGE });
        if (!max.ok) return fail(`${max.why}; itemPerPage=${MAX_PAGE} is the maximum and must be accepted`, max.res);
        if (max.items.length !== Math.min(MAX_PAGE, all.length)) fail(`itemPerPage=${MAX_PAGE} answered ${max.items.length} offers of ${all.length}`, max.res);
        const over = await page(ctx, list, { page: 1, itemPerPage: MAX_PAGE + 1 });
        if (over.ok && over.items.length > MAX_PAGE) fail(`itemPerPage=${MAX_PAGE + 1} answered ${over.items.length} offers; at most ${MAX_PAGE} a page`, over.res);
        if (!over.ok && notErrorAnswer(over.res, 'itemPerPage=1001')) fail(`${over.why}; above the maximum, expected at most 1000 records or a refusal`, over.res);
        return;
      }
    }
  },
});

/** What the rule of one case is judged with: the platform's own whole offer list, and how the case reports. */
interface RuleInput {
  ctx: CheckContext;
  list: ListShape;
  all: unknown[];
  fail: Fail;
  /** The whole list with `query` added, or undefined after failing the case when the walk breaks off. */
  filtered(query: Record<string, unknown>): Promise<{ items: unknown[]; res: CheckResponse | undefined } | undefined>;
  /** Fails the case when `items` (what a filter listed) holds an offer the unfiltered list does not. */
  subset(what: string, items: unknown[], res: CheckResponse | undefined): void;
}

/** search[name] lists the offer whose name it is, and only offers whose name holds it. */
async function judgeNameFilter({ ctx, all, fail, filtered }: RuleInput): Promise<void> {
  const offer = all.find((o) => typeof (o as Json)['name'] === 'string' && (o as Json)['name'] !== '') as Json | undefined;
  if (!offer) return ctx.noEvidence(ctx.requirements[0] as string, 'no listed offer has a name to filter by');
  const name = String(offer['name']);
  const got = await filtered({ 'search[name]': name });
  if (!got) return;
  if (!got.items.some((o) => idOf(o) === idOf(offer))) fail(`search[name]=${name} did not list offer ${idOf(offer)}, whose name it is`, got.res);
  const other = got.items.filter((o) => !String((o as Json)['name']).toLowerCase().includes(name.toLowerCase()));
  if (other.length) fail(`search[name]=${name} listed ${other.length} offer(s) whose name does not hold it (first: ${sample(other.map(recordKey), 1)})`, got.res);
}

/**
 * search[campaignId] (`campaign`) or search[campaignIds][] (`campaigns`) lists offers of the list,
 * none for an unknown whitelabel; one whitelabel through the list parameter lists what the single one does.
 */
async function judgeWhitelabelFilter({ ctx, list, fail, filtered, subset }: RuleInput, rule: 'campaign' | 'campaigns'): Promise<void> {
  const param = rule === 'campaign' ? 'search[campaignId]' : 'search[campaignIds][]';
  let found = 0;
  const probed = await whitelabelIds(ctx);
  for (const id of probed) {
    const got = await filtered({ [param]: id });
    if (!got) return;
    subset(`${param}=${id}`, got.items, got.res);
    if (got.items.length) found++;
    if (rule === 'campaigns' && got.items.length) {
      // one whitelabel through the list parameter lists what the single one does
      const single = await filtered({ 'search[campaignId]': id });
      if (!single) return;
      const { missing, extra } = multisetDiff(single.items, got.items);
      if (missing.length || extra.length) fail(`search[campaignIds][]=${id} listed ${got.items.length} offer(s), search[campaignId]=${id} ${single.items.length}; with one whitelabel they are the same filter`, got.res, { expected: single.items.length, actual: got.items.length });
    }
  }
  // whitelabel IDs are known only from postbacks (or guessed): none listing an offer is nothing to judge by, not a failure
  if (!found) ctx.noEvidence(ctx.requirements[0] as string, `no whitelabel of ${probed.join(', ')} (the postbacks' whitelabelID values, then 1-3) lists an offer through ${param}, so the filter was judged on no offer`);
  const unknown = await page(ctx, list, { [param]: UNKNOWN_ID, page: 1, [list.limit]: WALK_PAGE });
  if (unknown.ok && unknown.items.length) fail(`${param}=${UNKNOWN_ID} (no whitelabel has it) listed ${unknown.items.length} offer(s); expected none`, unknown.res);
  if (!unknown.ok && notErrorAnswer(unknown.res, param)) fail(`${unknown.why}; expected the list or a refusal`, unknown.res);
}

/** search[isExternal]=0 and =1 split the list in two: no offer in both, none in neither. */
async function judgeExternalFilter({ all, fail, filtered }: RuleInput): Promise<void> {
  const no = await filtered({ 'search[isExternal]': 0 });
  const yes = await filtered({ 'search[isExternal]': 1 });
  if (!no || !yes) return;
  const noKeys = new Set(no.items.map(idOf));
  const both = yes.items.map(idOf).filter((k) => noKeys.has(k));
  if (both.length) fail(`search[isExternal]=0 and =1 both list ${both.length} offer(s): ${both.slice(0, 5).join(', ')}`, yes.res);
  const { missing, extra } = multisetDiff(all, [...no.items, ...yes.items]);
  if (missing.length) fail(`${missing.length} offer(s) of the unfiltered list are neither external nor not (first: ${sample(missing, 1)})`, yes.res);
  if (extra.length && !both.length) fail(`search[isExternal] listed ${extra.length} offer(s) the unfiltered list does not hold`, yes.res);
}
