import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { matchRedirect } from '../../../reference/oauth/model/redirect.js';
import { REDIRECT_JUDGES, redirectCaseSchema, redirectExpectedSchema, type RedirectCase, type RedirectExpected } from './redirect-args.js';
import { act } from './support.js';

/**
 * Judges one redirect candidate (spec 000, B, Redirect URLs): the user agent opens the
 * authorization URL with the candidate as redirect_uri and approves if asked. Accepted means
 * the browser lands on the candidate with a `code`; rejected means no code is handed out and
 * the browser is not sent to the candidate. Error pages are not shown in the spec, so
 * nothing else about a rejection is judged.
 */
export const redirectOutcome = defineCheck<{ case: RedirectCase; expected: RedirectExpected }>({
  description: 'judges one redirect candidate: accepted lands on it with a code, rejected hands out no code',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['case', 'expected'],
    properties: { case: redirectCaseSchema, expected: redirectExpectedSchema },
  },
  judges: REDIRECT_JUDGES,
  run: (ctx, args) => judgeCandidate(ctx, args.case, args.expected),
});

/** The approval of one candidate, judged against the model's verdict on it. */
export async function judgeCandidate(ctx: CheckContext, c: RedirectCase, expected: RedirectExpected): Promise<void> {
  const candidate = c.redirect_uri;
  const r = await act(ctx, 'approve', { query: { client_id: c.client_id, redirect_uri: candidate, state: c.state } });
  const { location, landed, code } = landing(r, candidate);
  const actual = { outcome: r['outcome'], location: location || null, code: code ? '(present)' : null };
  if (expected.accepted) {
    if (!(landed && code)) {
      const blame = await narrowDown(ctx, c, candidate);
      ctx.fail({
        requirement: blame?.rule ?? expected.rule,
        message: blame
          ? `redirect_uri ${blame.uri} (${blame.what} of ${candidate}) must be accepted for callback ${c.callback}: ${blame.reason}`
          : `redirect_uri ${candidate} (${c.kind}) must be accepted for callback ${c.callback}: ${expected.reason}`,
        expected: { location: `${blame?.uri ?? candidate} with code`, code: '(present)' },
        actual,
      });
    }
  } else if (code || landed) {
    ctx.fail({
      requirement: expected.rule,
      message: `redirect_uri ${candidate} (${c.kind}) must be rejected for callback ${c.callback}: ${expected.reason}`,
      expected: { code: null, location: `not ${candidate}` },
      actual,
    });
  }
}

/**
 * Where an approval left the browser: its `location` ('' when none), whether that is `uri`
 * (landed), and the non-empty `code` handed out (null when none). Accepted is landed with a code.
 */
function landing(r: Record<string, unknown>, uri: string): { location: string; landed: boolean; code: string | null } {
  const location = typeof r['location'] === 'string' ? r['location'] : '';
  const landed = location ? sameTarget(location, uri) : false;
  const code = typeof r['code'] === 'string' && r['code'] !== '' ? r['code'] : null;
  return { location, landed, code };
}

/** Same destination as a browser sees it: origin and path after WHATWG parsing. */
export function sameTarget(location: string, candidate: string): boolean {
  try {
    const a = new URL(location);
    const b = new URL(candidate);
    return a.origin === b.origin && a.pathname === b.pathname && a.username === b.username;
  } catch {
    return false;
  }
}

/**
 * A candidate can widen the callback in two ways at once (a sub-domain and a deeper path, a
 * loopback port and a deeper path). When the target refuses it, the single-widening variants
 * tell which rule it breaks; undefined when both are taken (the combination itself is refused).
 */
async function narrowDown(ctx: CheckContext, c: RedirectCase, candidate: string): Promise<{ uri: string; what: string; rule: string; reason: string } | undefined> {
  const callback = c.callback;
  let cb: URL;
  let cand: URL;
  try {
    cb = new URL(callback);
    cand = new URL(candidate);
  } catch {
    return undefined;
  }
  const pathOnly = new URL(cand.toString());
  // Setting `host` without a port would keep the candidate's port: set both parts.
  pathOnly.hostname = cb.hostname;
  pathOnly.port = cb.port;
  const hostOnly = new URL(cand.toString());
  hostOnly.pathname = cb.pathname;
  hostOnly.search = '';
  for (const [probe, what] of [[pathOnly, 'its path alone'], [hostOnly, 'its host and port alone']] as const) {
    const uri = probe.toString();
    if (uri === cand.toString() || uri === cb.toString()) continue;
    const v = matchRedirect(callback, uri);
    if (!v.accepted) continue;
    const r = await act(ctx, 'approve', { query: { client_id: c.client_id, redirect_uri: uri, state: c.state } });
    const { landed, code } = landing(r, uri);
    if (!(landed && code)) return { uri, what, rule: v.rule, reason: v.reason };
  }
  return undefined;
}
