import { defineCheck } from '../../../src/engine/checks/contract.js';
import { goodRequest } from './lead-fields.js';
import { failure, notRefused } from './support.js';

/** The operations of the table, each refused without a valid key. */
export const OPERATIONS = ['registerLead', 'autologin', 'offers', 'leads', 'conversions', 'income', 'postbacks'] as const;

/** A key no platform issued. */
const FORGED_KEY = 'specgate-never-issued-0';

/**
 * `affiliate.refusal`: an operation's request, good in every other way, is refused without the
 * Api-Key header (`key: none`) or with a key the platform never issued (`key: wrong`): not
 * 200/201, messages[0] a string, and the target's refusal_status when it gives one (the spec
 * shows no code, Errors 3). The same request with the key is answered first, so the refusal is
 * about the key.
 */
export const refusal = defineCheck<{ operation: (typeof OPERATIONS)[number]; key: 'none' | 'wrong' }>({
  description: 'an operation refuses a request without Api-Key, or with a key never issued (not 200/201, messages[0]; refusal_status when given)',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['operation', 'key'],
    properties: { operation: { enum: [...OPERATIONS] }, key: { enum: ['none', 'wrong'] } },
  },
  judges: 'case',
  async run(ctx, args) {
    // the control runs on leads (a read), so no case registers a lead just to compare
    const control = await ctx.request(goodRequest(ctx, args.operation === 'registerLead' ? 'offers' : args.operation));
    if (control.status !== 200 && control.status !== 201) return ctx.fail(failure(`the request with the key answered ${control.status}; without a success there, a refusal without the key proves nothing`, control));
    const spec = goodRequest(ctx, args.operation);
    const res = await ctx.request({ ...spec, auth: false, ...(args.key === 'wrong' ? { headers: { 'Api-Key': FORGED_KEY } } : {}) });
    const why = notRefused(ctx, res, `${args.operation} ${args.key === 'none' ? 'without Api-Key' : 'with an Api-Key the platform never issued'}`);
    if (why) ctx.fail(failure(why, res));
  },
});
