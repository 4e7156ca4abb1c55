import { defineCheck } from '../../../src/engine/checks/contract.js';
import { ANSWERED_BY } from './refusal.js';
import { failure, notErrorAnswer, unmet, windowOf } from './support.js';

/**
 * `affiliate.datesRequired`: fromDate and toDate are required (E4, E5, E6): a request missing
 * either, or both, is refused with an error answer (not 200/201) rather than listed. The error
 * text is AFF-ERROR-MESSAGES's, judged by its own cases.
 */
export const datesRequired = defineCheck<{ operation: 'leads' | 'conversions' | 'income' }>({
  description: 'a lead, conversion or income request without fromDate, toDate or both is refused (not 200/201)',
  args: { type: 'object', additionalProperties: false, required: ['operation'], properties: { operation: { enum: ['leads', 'conversions', 'income'] } } },
  judges: 'case',
  async run(ctx, args) {
    const { fromDate, toDate } = windowOf(ctx);
    // the control: with both dates the same request is answered, so a refusal below is about the dates
    const good = await ctx.request({ operation: args.operation, query: { fromDate, toDate } });
    if (good.status !== 200 && good.status !== 201) return unmet(ctx, ANSWERED_BY[args.operation] as string, `${args.operation} with fromDate and toDate answered ${good.status}, not a success, so a refusal without them cannot be told from it`, good);
    for (const [what, query] of [
      ['without fromDate', { toDate }],
      ['without toDate', { fromDate }],
      ['without fromDate and toDate', {}],
    ] as const) {
      const res = await ctx.request({ operation: args.operation, query });
      const why = notErrorAnswer(res, `${args.operation} ${what}`);
      if (why) ctx.fail(failure(`${why}; fromDate and toDate are required`, res));
    }
  },
});
