import { defineCheck } from '../../../src/engine/checks/contract.js';
import { holdPrecondition, type PreconditionOtherwise } from '../../../src/engine/checks/precondition.js';
import { match } from '../../../src/checks/matchers.js';

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
  otherwise?: PreconditionOtherwise;
  /** `flow`: the value is what the authorization code flow gives (a code, an access token), see {@link flowRule}; `refresh`: what a refresh gives, see {@link refreshRule}. */
  by?: 'flow' | 'refresh';
}

/**
 * The rule a flow step rests on when a valid request of it gets no code or no token: the
 * preconfigured client's, when the case acts as the client the profile gave a server without
 * registration (CTX-SRV-NO-DCR-CLIENT); the fallback endpoints', when the server publishes no
 * metadata (CTX-SRV-FALLBACK-ENDPOINTS); otherwise the S256 flow's own (CTX-SRV-PKCE-S256: an
 * S256 request exchanged with its verifier gets a token).
 */
export function flowRule(vars: Record<string, unknown>): string {
  if (vars['client_registered'] === false && vars['has_registration'] === false) return 'CTX-SRV-NO-DCR-CLIENT';
  if (vars['has_metadata'] === false) return 'CTX-SRV-FALLBACK-ENDPOINTS';
  return 'CTX-SRV-PKCE-S256';
}

/**
 * The rule a refresh rests on when the refresh_token grant gives no token: without metadata the
 * token endpoint is the fallback `/token`, which serves "Token exchange and refresh" (C,
 * Endpoints table), so CTX-SRV-FALLBACK-REFRESH; otherwise the refresh rule itself
 * (CTX-SRV-REFRESH).
 */
export function refreshRule(vars: Record<string, unknown>): string {
  return vars['has_metadata'] === false ? 'CTX-SRV-FALLBACK-REFRESH' : 'CTX-SRV-REFRESH';
}

/**
 * `ctx-auth.require`: a precondition. When the value does not match, the case cannot judge its
 * requirements. With an owner (the step's `precondition:`, or `by: flow` for the rule the flow
 * rests on, {@link flowRule}), the case ends blocked by that rule; when the case judges the owner
 * itself, the owner fails first. Without one it ends not applicable (`otherwise:
 * not-applicable`: the target has no such feature, such as refresh tokens), skipped (`otherwise:
 * skip`: something the case needs is missing) or errored (the default). Never a pass.
 */
export const requireCheck = defineCheck<RequireArgs>({
  description: 'a precondition: the case ends blocked by the rule the step rests on (or not applicable, skipped, errored) when the value does not match, its requirements not judged',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['matches', 'because'],
    properties: {
      value: { description: 'the value, usually "${variable}"' },
      matches: { description: 'a matcher, as in expect:' },
      because: { type: 'string', minLength: 1, description: 'what does not hold, for the case\'s reason' },
      otherwise: { enum: ['error', 'skip', 'not-applicable'], description: 'without an owner: error (default), skip, or not-applicable' },
      by: { enum: ['flow', 'refresh'], description: 'flow: the value comes from the authorization code flow; refresh: from a refresh at the discovered token endpoint; the case is blocked by the rule that step rests on' },
    },
  },
  // it may fail the owner it rests on when the case judges that rule; otherwise it judges nothing
  judges: 'case',
  async run(ctx, args) {
    const owner = args.by === 'flow' ? flowRule(ctx.vars) : args.by === 'refresh' ? refreshRule(ctx.vars) : ctx.precondition;
    holdPrecondition(ctx, { value: args.value, matches: args.matches, because: args.because, owner, otherwise: args.otherwise });
  },
});
