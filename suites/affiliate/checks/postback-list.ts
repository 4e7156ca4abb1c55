import fc from 'fast-check';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import { SpecgateError } from '../../../src/errors.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { LISTS, page, sharedWalk, walk, WALK_PAGE, type ListShape } from './list-fetch.js';
import { onceEach } from './list-findings.js';
import { UNKNOWN_ID } from './window-lists.js';
import { offerIds } from './offer-lists.js';
import { extraRecords, failure, multisetDiff, notErrorAnswer, recordKey, sample, type Json } from './support.js';

type Fail = (message: string, res?: CheckResponse, more?: { expected?: unknown; actual?: unknown }) => void;

/** The page sizes E7 allows (and Limits repeats), and its default. */
export const POSTBACK_SIZES = [5, 10, 15, 20, 25, 100, 250, 500, 750, 1000] as const;
const DEFAULT_SIZE = 25;

type Rule = 'sizes' | 'default' | 'page-from-1' | 'paging' | 'filter';

/** The filters on fields a postback record carries: query parameter -> record field. */
const FIELD_FILTERS = { whitelabelID: 'whitelabelID', type: 'type', title: 'title', status: 'status', affiliateHash: 'affiliateHash', url: 'url', postbackID: 'ID' } as const;
/** Every filter of E7's table: the field filters, and offerID (no record field names the offer). */
const FILTERS = [...(Object.keys(FIELD_FILTERS) as (keyof typeof FIELD_FILTERS)[]), 'offerID'] as const;
type Filter = (typeof FILTERS)[number];

/**
 * `affiliate.postbackList`: one rule of the postback list (E7, Limits) judged against the
 * platform's own list: each allowed size is honoured and another is not, 25 without a size,
 * pages from 1, a walk of a generated allowed size (a property) visits each postback once with
 * total.items right, and one filter (`filter`) keeps exactly the matching postbacks.
 */
export const postbackList = defineCheck<{ rule: Rule; filter?: Filter }>({
  description: "one rule of the postback list (allowed sizes, default 25, pages from 1, walk, one filter) judged against the platform's own list",
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['rule'],
    properties: { rule: { enum: ['sizes', 'default', 'page-from-1', 'paging', 'filter'] }, filter: { enum: [...FILTERS] } },
  },
  judges: 'case',
  async run(ctx, args) {
    const fail: Fail = (message, res, more = {}) => ctx.fail(failure(message, res, more));
    const list = LISTS.postbacks;
    const full = await sharedWalk(ctx, list, {});
    if (!full.ok) return fail(full.why, full.res);
    const all = full.items as Json[];
    // no postback to judge by is no evidence, never a pass: the platform holds no postback configuration (none can be made through the API)
    if (!all.length) return ctx.noEvidence(ctx.requirements[0] as string, 'the postback list held no postback records');
    const input: RuleInput = { ctx, list, all, fail };
    switch (args.rule) {
      case 'sizes':
        return judgeSizes(input);
      case 'default': {
        if (all.length <= DEFAULT_SIZE) return ctx.noEvidence(ctx.requirements[0] as string, `the platform lists ${all.length} postbacks; the default page size can be judged only with more than ${DEFAULT_SIZE}`);
        const got = await page(ctx, list, {});
        if (!got.ok) return fail(got.why, got.res);
        if (got.items.length !== DEFAULT_SIZE) fail(`without itemsPerPage the page held ${got.items.length} postbacks; the default is ${DEFAULT_SIZE}`, got.res, { expected: DEFAULT_SIZE, actual: got.items.length });
        return;
      }
      case 'page-from-1':
        return judgePageFromOne(input);
      case 'paging': {
        await ctx.property(
          fc.constantFrom(...POSTBACK_SIZES),
          onceEach(async (size) => {
            const got = await walk(ctx, list, {}, size);
            const what = `a walk of itemsPerPage=${size}`;
            if (!got.ok) return failure(`${what}: ${got.why}`, got.res);
            const { missing, extra } = multisetDiff(all, got.items);
            if (missing.length || extra.length) return failure(`${what} (${got.pages.length} pages) missed ${missing.length} postback(s) and repeated or added ${extra.length} (first: ${sample([...missing, ...extra], 1)})`, got.pages[0], { expected: all.length, actual: got.items.length });
            if (got.total !== all.length) return failure(`${what}: total.items says ${String(got.total)}, but the list holds ${all.length} postbacks`, got.pages[0], { expected: all.length, actual: got.total });
            return undefined;
          }),
          // ten sizes: more runs would only repeat them
          { runs: Math.max(1, Math.min(ctx.runs, POSTBACK_SIZES.length)), label: 'postbacks paging' },
        );
        return;
      }
      case 'filter':
        if (!args.filter) throw new SpecgateError('SG_SUITE_SCHEMA', 'affiliate.postbackList: rule filter needs `filter`, the query parameter judged');
        return args.filter === 'offerID' ? judgeOfferFilter(input) : judgeFieldFilter(input, args.filter);
    }
  },
});

/** What the rule of one case is judged with: the platform's own whole list of postbacks, and how the case reports. */
interface RuleInput {
  ctx: CheckContext;
  list: ListShape;
  all: Json[];
  fail: Fail;
}

/** Each allowed page size is honoured; a size not allowed is refused or answered with an allowed one. */
async function judgeSizes({ ctx, list, all, fail }: RuleInput): Promise<void> {
  for (const size of POSTBACK_SIZES) {
    const got = await page(ctx, list, { page: 1, itemsPerPage: size });
    if (!got.ok) {
      fail(`${got.why}; ${size} is an allowed size`, got.res);
      continue;
    }
    const want = Math.min(size, all.length);
    if (got.items.length !== want) fail(`itemsPerPage=${size} answered ${got.items.length} postbacks of ${all.length}; expected ${want}`, got.res, { expected: want, actual: got.items.length });
  }
  const odd = 7;
  const got = await page(ctx, list, { page: 1, itemsPerPage: odd });
  if (got.ok) {
    const allowed = POSTBACK_SIZES.map((s) => Math.min(s, all.length));
    if (all.length > odd && (got.items.length === odd || !allowed.includes(got.items.length)))
      fail(`itemsPerPage=${odd} (not an allowed size) answered a page of ${got.items.length}; expected a refusal or a page of an allowed size (${POSTBACK_SIZES.join(', ')})`, got.res, { actual: got.items.length });
  } else if (notErrorAnswer(got.res, `itemsPerPage=${odd}`)) fail(`${got.why}; expected the list or a refusal`, got.res);
}

/** Pages count from 1: page=1 is the page without page, and page=2 follows it without repeating it. */
async function judgePageFromOne({ ctx, list, all, fail }: RuleInput): Promise<void> {
  const plain = await page(ctx, list, {});
  const one = await page(ctx, list, { page: 1 });
  const two = await page(ctx, list, { page: 2 });
  if (!plain.ok || !one.ok || !two.ok) {
    const bad = [plain, one, two].find((p) => !p.ok);
    if (bad && !bad.ok) fail(bad.why, bad.res);
    return;
  }
  if (plain.items.map(recordKey).join('\n') !== one.items.map(recordKey).join('\n')) fail('page=1 is not the page answered without page (the default is 1)', one.res);
  const onFirst = new Set(one.items.map(recordKey));
  const again = two.items.map(recordKey).filter((k) => onFirst.has(k));
  if (again.length) fail(`page=2 repeats ${again.length} postback(s) of page=1`, two.res, { actual: again.length });
  if (all.length > DEFAULT_SIZE && two.items.length === 0) fail(`page=2 is empty, but the platform lists ${all.length} postbacks, more than one default page`, two.res);
}

/** A field filter keeps exactly the postbacks holding the value (judged at a value some postback holds). */
async function judgeFieldFilter({ ctx, list, all, fail }: RuleInput, param: keyof typeof FIELD_FILTERS): Promise<void> {
  const name = FIELD_FILTERS[param];
  const value = all.map((p) => p[name]).find((v) => (typeof v === 'string' && v !== '') || typeof v === 'number');
  // a filter is judged only at a value some postback holds: none is no evidence, never a pass
  if (value === undefined) return ctx.noEvidence(ctx.requirements[0] as string, `no postback holds a value of ${name} to filter ${param} by`);
  ctx.observed(ctx.requirements[0] as string);
  const got = await walk(ctx, list, { [param]: value });
  if (!got.ok) return fail(got.why, got.res);
  const expected = all.filter((p) => String(p[name]) === String(value));
  const { missing, extra } = multisetDiff(expected, got.items);
  if (extra.length) fail(`${param}=${String(value)} listed ${extra.length} postback(s) whose ${name} is not ${String(value)} or that the list does not hold`, got.pages[0]);
  if (missing.length) fail(`${param}=${String(value)} left out ${missing.length} postback(s) whose ${name} is ${String(value)}`, got.pages[0], { expected: expected.length, actual: got.items.length });
}

/** offerID lists only postbacks of the list for real offers, and none for an unknown offer (or is refused). */
async function judgeOfferFilter({ ctx, list, all, fail }: RuleInput): Promise<void> {
  const ids = await offerIds(ctx, fail);
  if (!ids) return;
  if (!ids.length) return ctx.noEvidence(ctx.requirements[0] as string, 'the offer list is empty: no offer to filter by');
  for (const id of ids.slice(0, 2)) {
    const got = await walk(ctx, list, { offerID: id });
    if (!got.ok) return fail(got.why, got.res);
    const extra = extraRecords(all, got.items);
    if (extra.length) fail(`offerID=${id} listed ${extra.length} postback(s) the unfiltered list does not hold`, got.pages[0]);
  }
  const unknown = await page(ctx, list, { offerID: UNKNOWN_ID, page: 1, itemsPerPage: WALK_PAGE });
  if (unknown.ok && unknown.items.length) fail(`offerID=${UNKNOWN_ID} (no offer has it) listed ${unknown.items.length} postback(s); expected none`, unknown.res);
  if (!unknown.ok && notErrorAnswer(unknown.res, 'offerID')) fail(`${unknown.why}; expected the list or a refusal`, unknown.res);
}
