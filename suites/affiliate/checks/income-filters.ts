import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { offerIds } from './offer-lists.js';
import { ANSWERED_BY } from './refusal.js';
import { failure, field, unmet, windowOf } from './support.js';

/**
 * The filters of E6. How cost and income are computed is not shown and the answer has no records,
 * so what a filter keeps cannot be judged: each is judged as accepted (answered 200 with `cost`
 * and `income` numbers), and an array filter with one ID as the same filter as its single-ID
 * form (`affiliateIDs[]` and `affiliateID`, `campaignIDs[]` and `campaignID`, `countryIDs[]` and
 * `countryID`), as search[campaignIds][] is judged against search[campaignId] for offers.
 */
const SINGLE_OF: Readonly<Record<string, string>> = {
  'affiliateIDs[]': 'affiliateID',
  'campaignIDs[]': 'campaignID',
  'countryIDs[]': 'countryID',
};
const PARAMS = ['affiliateID', 'affiliateIDs[]', 'campaignID', 'campaignIDs[]', 'brokerID', 'qualified', 'skip', 'brokerWorkingHours', 'brokerGroups[]', 'countryID', 'countryIDs[]'] as const;
type Param = (typeof PARAMS)[number];

/** The flags of the table (integers the platform reads as 0 or 1). */
const FLAGS: readonly string[] = ['qualified', 'skip', 'brokerWorkingHours'];
/** IDs the spec does not show the values of: small integers. */
const SMALL_IDS = [1, 2];

/** The totals of one answer, or why it is not an income answer. */
type Totals = { ok: true; cost: number; income: number; res: CheckResponse } | { ok: false; res: CheckResponse; why: string };

async function totals(ctx: CheckContext, query: Record<string, unknown>, what: string): Promise<Totals> {
  const res = await ctx.request({ operation: 'income', query: { ...windowOf(ctx), ...query } });
  const cost = field(res.body, 'cost');
  const income = field(res.body, 'income');
  if (res.status !== 200 || typeof cost !== 'number' || typeof income !== 'number') return { ok: false, res, why: `income with ${what} answered ${res.status} without cost and income numbers` };
  return { ok: true, cost, income, res };
}

/** The values a parameter is sent with: the platform's offer IDs for campaigns (E5 reads campaignIDs[] as offers), 0 and 1 for flags, small integers otherwise. */
async function valuesFor(ctx: CheckContext, param: Param): Promise<number[] | undefined> {
  if (FLAGS.includes(param)) return [0, 1];
  if (param.startsWith('campaignID')) {
    const ids = await offerIds(ctx, (message, res) => ctx.fail(failure(message, res)));
    return ids ? [...new Set([...ids.slice(0, 2), ...SMALL_IDS])].slice(0, 3) : undefined;
  }
  return SMALL_IDS;
}

/**
 * `affiliate.incomeFilter`: one row of E6's filter table: income with the parameter at each of a
 * few values is answered 200 with cost and income numbers; for an array row, the totals with one
 * ID are those of the single-ID row with it.
 */
export const incomeFilter = defineCheck<{ param: Param }>({
  description: 'one income filter is accepted (200 with cost and income numbers); an array filter with one ID totals what its single-ID form does',
  args: { type: 'object', additionalProperties: false, required: ['param'], properties: { param: { enum: [...PARAMS] } } },
  judges: 'case',
  async run(ctx, args) {
    // the control: income without the filter is answered, so a refusal below is about the filter
    const control = await totals(ctx, {}, 'no filter');
    if (!control.ok) {
      // a body that is no JSON object is AFF-JSON-BODIES's defect; fields missing from one, the shape rule's
      const body = control.res.body;
      const owner = body !== null && typeof body === 'object' && !Array.isArray(body) ? (ANSWERED_BY['income'] as string) : 'AFF-JSON-BODIES';
      return unmet(ctx, owner, `${control.why}, so a filter's answer cannot be told from it`, control.res);
    }
    const values = await valuesFor(ctx, args.param);
    if (!values) return;
    const single = SINGLE_OF[args.param];
    for (const value of values) {
      const what = `${args.param}=${value}`;
      const got = await totals(ctx, { [args.param]: value }, what);
      if (!got.ok) {
        ctx.fail(failure(`${got.why}; a filter the caller may send is answered with the totals`, got.res));
        continue;
      }
      if (!single) continue;
      const one = await totals(ctx, { [single]: value }, `${single}=${value}`);
      if (!one.ok) continue; // the single-ID row's own case judges that answer
      if (one.cost !== got.cost || one.income !== got.income) {
        ctx.fail(failure(`income with ${what} totals cost ${got.cost}, income ${got.income}; with ${single}=${value} cost ${one.cost}, income ${one.income}; with one ID they are the same filter`, got.res, { expected: { cost: one.cost, income: one.income }, actual: { cost: got.cost, income: got.income } }));
      }
    }
  },
});
