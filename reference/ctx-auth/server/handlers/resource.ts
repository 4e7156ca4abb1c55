import { RESOURCE_SCOPE } from '../../model/scopes.js';
import { jsonAnswer, type CtxAnswer, type Handler } from '../answers.js';
import { bearerToken } from '../credentials.js';
import { answerRpc, rpcError } from '../json-rpc.js';

/** RFC 6750 §3: the challenge of every 401 and 403 the resource answers. */
export const CHALLENGES = {
  missing: 'Bearer realm="ctx"',
  invalid: 'Bearer error="invalid_token"',
  insufficientScope: `Bearer error="insufficient_scope", scope="${RESOURCE_SCOPE}"`,
} as const;

function challenge(status: 401 | 403, value: string, error: string, description: string): CtxAnswer {
  return jsonAnswer(status, { error, error_description: description }, { 'www-authenticate': value });
}

/**
 * The protected resource at the server URL (C Endpoints 4, C Auth 5 and 7): every request needs
 * `Authorization: Bearer <token>`, whatever session it belongs to; a token in the query string
 * is not looked at. No token: 401 `Bearer realm`; an unknown, expired or used-up token: 401
 * invalid_token; a token without the `ctx` scope: 403 insufficient_scope. An authorized
 * `initialize` without a session header gets a new session ID in that header. A token bound to
 * a third-party session (a delegating server) is honored only while that session is.
 */
export const resource: Handler = async (call, ctx) => {
  const access = ctx.model.accessResource(bearerToken(call.headers['authorization']));
  if (!access.ok) {
    if (access.kind === 'missing') return challenge(401, CHALLENGES.missing, 'invalid_token', access.description);
    if (access.kind === 'invalid') return challenge(401, CHALLENGES.invalid, 'invalid_token', access.description);
    return challenge(403, CHALLENGES.insufficientScope, 'insufficient_scope', access.description);
  }
  // a delegating server honors its token only while the third-party session behind it is valid (C Auth 9)
  if (access.token.upstream && ctx.delegation && !(await ctx.delegation.honors(access.token.upstream))) return challenge(401, CHALLENGES.invalid, 'invalid_token', 'the third-party authorization behind this token is no longer valid');
  if (call.method !== 'POST') return { status: 405, headers: { allow: 'POST' }, json: rpcError(-32000, `${call.method} is not served here; POST JSON-RPC messages`) };
  let body: unknown;
  try {
    body = JSON.parse(call.body);
  } catch {
    return jsonAnswer(400, rpcError(-32700, 'the body is not JSON'));
  }
  const reply = answerRpc(body);
  if (!reply) return jsonAnswer(400, rpcError(-32600, 'the body is not a JSON-RPC message'));
  const sessionName = ctx.settings.sessionHeader.toLowerCase();
  const headers: Record<string, string> = {};
  if (reply.initialize && call.headers[sessionName] === undefined) headers[sessionName] = ctx.model.newSessionId();
  if (reply.responses.length === 0) return { status: 202, headers };
  return jsonAnswer(200, reply.batch ? reply.responses : reply.responses[0], headers);
};
