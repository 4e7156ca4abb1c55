import type { TypedCheck } from '../../../src/engine/suite-module.js';
import { act, need, postForm, str } from './support.js';

/**
 * One PKCE combination through the web flow (spec 000, B, Endpoints 1 and 2): the authorization
 * request carries the case's challenge and method; when the oracle says a code is issued, the
 * exchange carries the case's verifier. Args: `case` (a pkceCase), `expected` (pkceVerdict).
 */
export const pkceFlow: TypedCheck = async (ctx, args) => {
  const c = args['case'] as Record<string, unknown>;
  const expected = args['expected'] as { authorize: boolean; token: boolean; requirement: string; reason: string };
  const query: Record<string, unknown> = { client_id: need(ctx, 'client_id'), state: 'pkce', code_challenge: c['code_challenge'], code_challenge_method: c['code_challenge_method'] };
  const r = await act(ctx, 'approve', { query });
  const code = typeof r['code'] === 'string' && r['code'] !== '' ? r['code'] : '';
  if (!expected.authorize) {
    if (code) ctx.fail({ requirement: expected.requirement, message: `${str(c['kind'])}: the authorization request must issue no code (${expected.reason})`, expected: { code: null }, actual: { outcome: r['outcome'], code: '(present)' } });
    return;
  }
  if (!code) {
    ctx.fail({ requirement: expected.requirement, message: `${str(c['kind'])}: a valid PKCE authorization request must issue a code`, expected: { code: '(present)' }, actual: { outcome: r['outcome'], error: r['error'] } });
    return;
  }
  const sent = await postForm(ctx, `${need(ctx, 'auth_url')}/login/oauth/access_token`, {
    client_id: need(ctx, 'client_id'),
    client_secret: need(ctx, 'client_secret'),
    code,
    code_verifier: c['code_verifier'],
  });
  const token = str(sent.fields['access_token']);
  if (expected.token !== Boolean(token)) {
    ctx.fail({
      requirement: expected.requirement,
      message: `${str(c['kind'])}: the exchange must ${expected.token ? '' : 'not '}return an access token (${expected.reason})`,
      expected: { access_token: expected.token ? '(present)' : null },
      actual: { status: sent.res.status, access_token: token ? '(present)' : null, error: sent.fields['error'] ?? null },
      exchange: sent.exchange,
    });
  }
};
