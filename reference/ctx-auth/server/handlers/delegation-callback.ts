import { jsonAnswer, redirectTo, type Handler } from '../answers.js';

/**
 * Where the third party sends the user back (C Auth 9, steps 4-7): its code is exchanged for a
 * third-party token, bound to the server's own code, and the user goes on to the client with
 * that code and the client's state; a refusal or failure of the third party goes to the client
 * as `error` (access_denied, or server_error), never as a code. Only routed when the server
 * delegates.
 */
export const delegationCallback: Handler = async (call, ctx) => {
  if (!ctx.delegation) return jsonAnswer(404, { error: 'not_found', error_description: 'this server does not delegate' });
  const outcome = await ctx.delegation.callback(call.query);
  if (outcome.kind === 'unknown') return jsonAnswer(400, { error: 'invalid_request', error_description: outcome.description }, { 'cache-control': 'no-store' });
  if (outcome.kind === 'error') return redirectTo(outcome.redirectUri, { error: outcome.error, error_description: outcome.description, state: outcome.state });
  return redirectTo(outcome.redirectUri, { code: outcome.code, state: outcome.state });
};
