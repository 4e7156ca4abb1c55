import { jsonAnswer, oauthError, type Handler } from '../answers.js';

/**
 * Dynamic client registration (C Auth 3, RFC 7591 §3): a JSON POST of client metadata, 201 with
 * the client's ID (and secret, unless it registers as public) and the metadata echoed; 400
 * `invalid_redirect_uri` or `invalid_client_metadata` otherwise. Only routed when registration
 * is offered; otherwise the path answers 404.
 */
export const register: Handler = (call, ctx) => {
  let body: unknown;
  try {
    body = JSON.parse(call.body);
  } catch {
    return oauthError(400, 'invalid_client_metadata', 'the registration body must be JSON client metadata', { 'cache-control': 'no-store' });
  }
  const outcome = ctx.model.register(body);
  if (!outcome.ok) return oauthError(400, outcome.error, outcome.description, { 'cache-control': 'no-store' });
  return jsonAnswer(201, outcome.body, { 'cache-control': 'no-store', pragma: 'no-cache' });
};
