import { defineCheck } from '../../../src/engine/checks/contract.js';
import { PKCE_RULES } from '../../../reference/oauth/model/pkce.js';
import { act, need, postForm, str } from './support.js';

/** A PKCE combination (the `oauth.pkceCase` generator's value); null leaves a parameter out. */
interface PkceCase {
  kind: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  code_verifier: string | null;
}

/** The model's verdict on a combination (the `oauth.pkceVerdict` oracle's answer). */
interface PkceExpected {
  authorize: boolean;
  token: boolean;
  requirement: string;
  reason: string;
}

/** Every requirement a PKCE verdict can name; a combination without PKCE is an ordinary web flow. */
const PKCE_JUDGES = [...Object.values(PKCE_RULES), 'OAUTH-AUTHZ-REDIRECT-CODE'];
const nullableString = { type: ['string', 'null'] };

/**
 * One PKCE combination through the web flow (spec 000, B, Endpoints 1 and 2): the authorization
 * request carries the case's challenge and method; when the oracle says a code is issued, the
 * exchange carries the case's verifier.
 */
export const pkceFlow = defineCheck<{ case: PkceCase; expected: PkceExpected }>({
  description: 'runs one PKCE combination through the web flow and judges the code and the token against the model',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['case', 'expected'],
    properties: {
      case: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'code_challenge', 'code_challenge_method', 'code_verifier'],
        properties: { kind: { type: 'string' }, code_challenge: nullableString, code_challenge_method: nullableString, code_verifier: nullableString },
      },
      expected: {
        type: 'object',
        additionalProperties: false,
        required: ['authorize', 'token', 'requirement', 'reason'],
        properties: { authorize: { type: 'boolean' }, token: { type: 'boolean' }, requirement: { enum: PKCE_JUDGES }, reason: { type: 'string' } },
      },
    },
  },
  judges: PKCE_JUDGES,
  async run(ctx, { case: c, expected }) {
    const query = { client_id: need(ctx, 'client_id'), state: 'pkce', code_challenge: c.code_challenge, code_challenge_method: c.code_challenge_method };
    const r = await act(ctx, 'approve', { query });
    const code = typeof r['code'] === 'string' && r['code'] !== '' ? r['code'] : '';
    const requirement = expected.requirement;
    if (!expected.authorize) {
      if (code) ctx.fail({ requirement, message: `${c.kind}: the authorization request must issue no code (${expected.reason})`, expected: { code: null }, actual: { outcome: r['outcome'], code: '(present)' } });
      return;
    }
    if (!code) {
      // sent back to the application without an error, the redirect carried no code where it
      // belongs: that is the redirect rule's failure, not the PKCE rule's
      const redirect = r['outcome'] === 'redirected' && !r['error'] && ctx.requirements.includes('OAUTH-AUTHZ-REDIRECT-CODE');
      const where = redirect ? ' in the query of the redirect' : '';
      ctx.fail({ requirement: redirect ? 'OAUTH-AUTHZ-REDIRECT-CODE' : requirement, message: `${c.kind}: a valid PKCE authorization request must issue a code${where}`, expected: { code: '(present)' }, actual: { outcome: r['outcome'], error: r['error'] } });
      return;
    }
    const sent = await postForm(ctx, `${need(ctx, 'auth_url')}/login/oauth/access_token`, {
      client_id: need(ctx, 'client_id'),
      client_secret: need(ctx, 'client_secret'),
      code,
      code_verifier: c.code_verifier,
    });
    const token = str(sent.fields['access_token']);
    if (expected.token !== Boolean(token)) {
      ctx.fail({
        requirement,
        message: `${c.kind}: the exchange must ${expected.token ? '' : 'not '}return an access token (${expected.reason})`,
        expected: { access_token: expected.token ? '(present)' : null },
        actual: { status: sent.res.status, access_token: token ? '(present)' : null, error: sent.fields['error'] ?? null },
        exchange: sent.exchange,
      });
    }
  },
});
