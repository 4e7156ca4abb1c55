import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckResponse } from '../../../src/engine/suite-module.js';

interface PrefixArgs {
  /** Read operations of api.yaml whose paths need only the profile's identifiers. */
  operations: string[];
}

/**
 * `merchant.versionPrefix`: the API answers below `/content/v2.1` (spec 001, Versioning 1:
 * "The merchant API version is in the path prefix `/content/v2.1`"). A wrong prefix leaves
 * every operation unanswered there, so the check sends several read operations (their
 * requests built from api.yaml, whose base holds the prefix) and fails the prefix rule only
 * when none of them is served: one missing route is that route's own requirement
 * (MERCHANT-OP-*), not a wrong version. Each operation served counts as one observation.
 */
export const versionPrefix = defineCheck<PrefixArgs>({
  description: 'read operations answer below /content/v2.1; the prefix rule fails only when none of them is served there',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['operations'],
    properties: { operations: { type: 'array', minItems: 2, items: { type: 'string' }, description: 'operation IDs of api.yaml to send (GETs needing only profile identifiers)' } },
  },
  judges: 'case',
  async run(ctx, args) {
    const answers: { op: string; res: CheckResponse }[] = [];
    for (const op of args.operations) answers.push({ op, res: await ctx.request({ operation: op }) });
    const served = answers.filter((a) => a.res.status >= 200 && a.res.status < 300);
    if (served.length) {
      ctx.observed(undefined, served.length);
      return;
    }
    const first = answers[0];
    ctx.fail({
      message: `none of ${answers.length} operations is served below /content/v2.1: ${answers.map((a) => `${a.op} answered ${a.res.status}`).join(', ')}`,
      expected: 'a 2xx from at least one of them',
      actual: answers.map((a) => a.res.status),
      ...(first ? { exchange: first.res.exchange } : {}),
    });
  },
});
