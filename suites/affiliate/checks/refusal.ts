import { defineCheck } from '../../../src/engine/checks/contract.js';
import { goodRequest } from './lead-fields.js';
import { failure, notRefused, unmet } from './support.js';

/** The operations of the table, each refused without a valid key. */
export const OPERATIONS = ['registerLead', 'autologin', 'offers', 'leads', 'conversions', 'income', 'postbacks'] as const;

/**
 * The rule whose case reads each operation with the key and expects a success: the control
 * below rests on it (registration's control reads offers).
 */
export const ANSWERED_BY: Readonly<Record<string, string>> = {
  offers: 'AFF-OFFERS-SHAPE',
  autologin: 'AFF-AUTOLOGIN-SHAPE',
  leads: 'AFF-LEADS-SHAPE',
  conversions: 'AFF-CONVERSIONS-SHAPE',
  income: 'AFF-INCOME-SHAPE',
  postbacks: 'AFF-POSTBACKS-SHAPE',
};

/** A key no platform issued. */
const FORGED_KEY = 'specgate-never-issued-0';

/**
 * `affiliate.refusal`: an operation's request, good in every other way, is refused without the
 * Api-Key header (`key: none`) or with a key the platform never issued (`key: wrong`): not
 * 200/201, and the target's refusal_status when it gives one (the spec shows no code, Errors 3).
 * The error text is AFF-ERROR-MESSAGES's (envelope cases), not read here. The same request with
 * the key is answered first, so the refusal is about the key; when it is not, the case is
 * blocked by the rule that read fails.
 */
export const refusal = defineCheck<{ operation: (typeof OPERATIONS)[number]; key: 'none' | 'wrong' }>({
  description: 'an operation refuses a request without Api-Key, or with a key never issued (not 200/201; refusal_status when given)',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['operation', 'key'],
    properties: { operation: { enum: [...OPERATIONS] }, key: { enum: ['none', 'wrong'] } },
  },
  judges: 'case',
  async run(ctx, args) {
    // the control runs on leads (a read), so no case registers a lead just to compare
    const read = args.operation === 'registerLead' ? 'offers' : args.operation;
    const control = await ctx.request(goodRequest(ctx, read));
    if (control.status !== 200 && control.status !== 201) return unmet(ctx, ANSWERED_BY[read] as string, `${read} with the key answered ${control.status}, not a success, so a refusal without a valid key cannot be told from it`, control);
    const spec = goodRequest(ctx, args.operation);
    const res = await ctx.request({ ...spec, auth: false, ...(args.key === 'wrong' ? { headers: { 'Api-Key': FORGED_KEY } } : {}) });
    const why = notRefused(ctx, res, `${args.operation} ${args.key === 'none' ? 'without Api-Key' : 'with an Api-Key the platform never issued'}`);
    if (why) ctx.fail(failure(why, res));
  },
});
