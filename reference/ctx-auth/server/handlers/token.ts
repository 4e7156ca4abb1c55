import { oauthError, singleParams, jsonAnswer, type CtxAnswer, type Handler } from '../answers.js';
import { presentedCredentials } from '../credentials.js';
import { mediaType } from '../http.js';

const FORM = 'application/x-www-form-urlencoded';
/** OAuth 2.1 §3.2.3: token answers, successes and errors alike, are never cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function refused(error: string, description: string): CtxAnswer {
  if (error === 'invalid_client') return oauthError(401, error, description, { ...NO_STORE, 'www-authenticate': 'Basic realm="ctx"' });
  return oauthError(400, error, description, NO_STORE);
}

/**
 * The token endpoint (OAuth 2.1 §3.2): a form POST for the authorization_code, refresh_token
 * and client_credentials grants. Refusals are 400 with a registered error code, or 401
 * invalid_client with `WWW-Authenticate: Basic` (OAuth 2.1 §3.2.4).
 */
export const token: Handler = (call, ctx) => {
  const type = mediaType(call.headers['content-type']);
  if (type !== FORM) return refused('invalid_request', `send the token request as ${FORM}; got ${type === '' ? 'no content type' : type}`);
  const { params, repeated } = singleParams(new URLSearchParams(call.body));
  if (repeated.length) return refused('invalid_request', `parameters sent more than once: ${repeated.join(', ')}`);
  const outcome = ctx.model.token(params, presentedCredentials(call.headers, params));
  if (!outcome.ok) return refused(outcome.error, outcome.description);
  return jsonAnswer(200, outcome.body, NO_STORE);
};
