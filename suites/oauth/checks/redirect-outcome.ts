import type { TypedCheck } from '../../../src/engine/suite-module.js';
import { act, str } from './support.js';

/**
 * Judges one redirect candidate (spec 000, B, Redirect URLs): the user agent opens the
 * authorization URL with the candidate as redirect_uri and approves if asked. Accepted means
 * the browser lands on the candidate with a `code`; rejected means no code is handed out and
 * the browser is not sent to the candidate. Error pages are not shown in the spec, so
 * nothing else about a rejection is judged. Args: `case` (a redirectCandidate), `expected`
 * (the redirectVerdict oracle's answer).
 */
export const redirectOutcome: TypedCheck = async (ctx, args) => {
  const c = args['case'] as Record<string, unknown>;
  const expected = args['expected'] as { accepted: boolean; rule: string; reason: string };
  const candidate = str(c['redirect_uri']);
  const r = await act(ctx, 'approve', { query: { client_id: c['client_id'], redirect_uri: candidate, state: c['state'] } });
  const location = typeof r['location'] === 'string' ? r['location'] : '';
  const landed = location ? sameTarget(location, candidate) : false;
  const code = typeof r['code'] === 'string' && r['code'] !== '' ? r['code'] : null;
  const actual = { outcome: r['outcome'], location: location || null, code: code ? '(present)' : null };
  if (expected.accepted) {
    if (!(landed && code)) {
      ctx.fail({
        requirement: expected.rule,
        message: `redirect_uri ${candidate} (${str(c['kind'])}) must be accepted for callback ${str(c['callback'])}: ${expected.reason}`,
        expected: { location: `${candidate} with code`, code: '(present)' },
        actual,
      });
    }
  } else if (code || landed) {
    ctx.fail({
      requirement: expected.rule,
      message: `redirect_uri ${candidate} (${str(c['kind'])}) must be rejected for callback ${str(c['callback'])}: ${expected.reason}`,
      expected: { code: null, location: `not ${candidate}` },
      actual,
    });
  }
};

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
