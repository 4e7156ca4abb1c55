import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { HttpRequestSpec } from '../../../src/engine/model.js';
import { goodRequest } from './lead-fields.js';
import { at, failure, windowOf } from './support.js';

/** The read operations whose answers carry the envelope. */
const READS = ['offers', 'leads', 'conversions', 'income', 'postbacks', 'autologin'] as const;

/**
 * `affiliate.httpCode`: the envelope's `server.httpCode` (E. Affiliate resources: "`httpCode`
 * (integer)") is the HTTP status of the answer it is in. Asked of a success of each read
 * operation and of a refusal of invalid input (a lead list without fromDate, sent with the key),
 * so a platform that writes one fixed code shows it. An answer without an integer httpCode is
 * AFF-ENVELOPE-SERVER's (or AFF-ENVELOPE-SERVER-REFUSALS's) to judge, not this rule's: only the
 * answers that carry one are evidence.
 */
export const httpCode = defineCheck<Record<string, never>>({
  description: "server.httpCode of success answers and of a refusal equals the answer's HTTP status",
  args: { type: 'object', additionalProperties: false, properties: {} },
  judges: 'case',
  async run(ctx) {
    const requests: HttpRequestSpec[] = [...READS.map((op) => goodRequest(ctx, op)), { operation: 'leads', query: { toDate: windowOf(ctx).toDate } }];
    let carried = 0;
    for (const request of requests) {
      const res = await ctx.request(request);
      const code = at(res.body, 'server.httpCode');
      if (typeof code !== 'number' || !Number.isInteger(code)) continue;
      carried += 1;
      if (code !== res.status) ctx.fail(failure(`${request.operation ?? ''} answered HTTP ${res.status} with server.httpCode ${code}; expected the answer's own status`, res, { expected: res.status, actual: code }));
    }
    const requirement = ctx.requirements[0] as string;
    if (!carried) return ctx.noEvidence(requirement, 'no answer carried an integer server.httpCode to compare with its status');
    ctx.observed(requirement, carried);
  },
});
