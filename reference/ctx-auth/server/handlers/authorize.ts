import type { AuthorizeParams } from '../../model/authorize-request.js';
import { oauthError, redirectTo, singleParams, type Handler } from '../answers.js';

const NAMES = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'scope', 'state'] as const;

/**
 * The authorization endpoint (OAuth 2.1 §4.1.1), approving at once: no user interaction, so a
 * headless user agent GETs the URL without following the redirect and reads Location. Without a
 * trustworthy redirect URI the answer is 400 JSON, never a redirect (C Auth 8, C Status codes);
 * other errors go back to the redirect URI with `error` and the state (OAuth 2.1 §4.1.2.1).
 * Under `wrongState` a code comes back with a state the client did not send. A server that
 * delegates (C Auth 9) sends the user to the third party instead, holding the code back until the
 * callback. A repeated parameter counts as its first value.
 */
export const authorize: Handler = (call, ctx) => {
  const { params } = singleParams(call.query);
  const asked: AuthorizeParams = {};
  for (const name of NAMES) if (params[name] !== undefined) asked[name] = params[name];
  const outcome = ctx.model.authorize(asked);
  if (outcome.kind === 'refuse') return oauthError(400, outcome.error, outcome.description, { 'cache-control': 'no-store' });
  if (outcome.kind === 'redirect-error') return redirectTo(outcome.redirectUri, { error: outcome.error, error_description: outcome.description, state: outcome.state });
  if (ctx.delegation) return { status: 302, headers: { location: ctx.delegation.begin(outcome.code, outcome.redirectUri, outcome.state), 'cache-control': 'no-store' } };
  const state = ctx.settings.wrongState && outcome.state !== undefined ? `${outcome.state}-not-yours` : outcome.state;
  return redirectTo(outcome.redirectUri, { code: outcome.code.value, state });
};
