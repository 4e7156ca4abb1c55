import { defineCheck } from '../../../src/engine/checks/contract.js';
import { match } from '../../../src/checks/matchers.js';
import { SpecgateError } from '../../../src/errors.js';

/** Arguments of `ctx-auth.expect`: a value, the matcher it must satisfy, and what it is. */
interface ExpectArgs {
  value?: unknown;
  matches: unknown;
  requirement?: string;
  message?: string;
}

/**
 * `ctx-auth.expect`: judges a value a check set (a user-agent outcome, a captured status) with
 * the matcher vocabulary of `expect:`, which such values have no step of their own for.
 * `requirement` names the one requirement judged (default: all of the case's); `message` says
 * what the value is, and may name what the case relied on (the advertised expires_in, say).
 */
export const expectCheck = defineCheck<ExpectArgs>({
  description: 'judges a value a check set with the matcher vocabulary of expect:',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['matches'],
    properties: {
      value: { description: 'the value judged, usually "${variable}"' },
      matches: { description: 'a matcher, as in expect:' },
      requirement: { type: 'string', pattern: '^[A-Z][A-Z0-9-]+$', description: 'the requirement judged (default: all of the case)' },
      message: { type: 'string', description: 'what the value is, for the failure message' },
    },
  },
  judges: 'case',
  async run(ctx, args) {
    const attributed = args.requirement ? { requirement: args.requirement } : {};
    for (const m of match(args.value, args.matches)) {
      ctx.fail({ ...attributed, message: `${args.message ?? 'value'}: ${m.path === '$' ? '' : `${m.path} `}${m.message}`, expected: m.expected, actual: m.actual === undefined ? '(absent)' : m.actual });
    }
  },
});

/** Arguments of `ctx-auth.require`: a precondition of the case. */
interface RequireArgs {
  value?: unknown;
  matches: unknown;
  because: string;
  otherwise?: 'error' | 'skip' | 'not-applicable';
}

/**
 * `ctx-auth.require`: a precondition. When the value does not match, the case cannot judge its
 * requirements: it ends errored (`otherwise: error`, the default: the target answered something
 * the case cannot go on from), skipped (`otherwise: skip`: something the case needs is missing),
 * or not applicable (`otherwise: not-applicable`: the target has no such feature, such as tokens
 * that expire or refresh tokens, so what the case judges does not apply to it). Never a pass,
 * never a conformance failure.
 */
export const requireCheck = defineCheck<RequireArgs>({
  description: 'a precondition: the case ends errored (or skipped, or not applicable) when the value does not match, its requirements not judged',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['matches', 'because'],
    properties: {
      value: { description: 'the value, usually "${variable}"' },
      matches: { description: 'a matcher, as in expect:' },
      because: { type: 'string', minLength: 1, description: 'what does not hold, for the case\'s reason' },
      otherwise: { enum: ['error', 'skip', 'not-applicable'], description: 'error (default), skip, or not-applicable' },
    },
  },
  judges: [],
  async run(ctx, args) {
    const problems = match(args.value, args.matches);
    if (!problems.length) return;
    const why = `${args.because} (${problems.map((m) => `${m.path} ${m.message}`).join('; ')})`;
    if (args.otherwise === 'not-applicable') ctx.notApplicable(why);
    if (args.otherwise === 'skip') ctx.skip(`cannot judge: ${why}`);
    throw new SpecgateError('SG_TARGET_PROTOCOL', `cannot judge: ${why}`);
  },
});
