import { SpecgateError } from '../../../src/errors.js';
import type { CtxClientBehaviour } from './behaviour.js';
import { CTX_PROTOCOL_VERSION, type CtxClientEnv } from './contract.js';
import { describeAnswer, jsonObject, request, type HttpAnswer } from './http.js';

/** What one session of resource calls keeps between calls. */
export interface ResourceSession {
  /** The session id the server answered (C, Endpoints 4: later requests still carry the token). */
  sessionId: string | undefined;
  nextId: number;
}

export const CLIENT_INFO = { name: 'specgate-reference-ctx-client', version: '0.1.0' } as const;

/** The JSON-RPC request of one call: `initialize` opens the session at this revision, the others are `ping`. */
export function jsonRpcBody(method: string, id: number, clientInfo: { name: string; version: string } = CLIENT_INFO): Record<string, unknown> {
  const body: Record<string, unknown> = { jsonrpc: '2.0', id, method };
  if (method === 'initialize') body['params'] = { protocolVersion: CTX_PROTOCOL_VERSION, capabilities: {}, clientInfo };
  return body;
}

/**
 * One resource call: a POST of JSON-RPC to the server URL with the token as a bearer
 * credential (never in the query, C, Endpoints 4) and the session header once the server gave
 * one. The answer is returned as it came; a 401 is the caller's to handle.
 */
export async function callResource(env: CtxClientEnv, b: CtxClientBehaviour, token: string | undefined, session: ResourceSession, method: string, id: number): Promise<HttpAnswer> {
  const { url, headers } = b.resourceRequest(env.serverUrl, token);
  const all: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers };
  if (session.sessionId !== undefined) all[env.sessionHeader] = session.sessionId;
  const answer = await request(`resource call ${method}`, url, { method: 'POST', headers: all, body: JSON.stringify(jsonRpcBody(method, id)) });
  const sid = answer.headers.get(env.sessionHeader);
  if (answer.status === 200 && sid) session.sessionId = sid;
  return answer;
}

/** The JSON-RPC message of an answer: a JSON body, or the first `data:` event of an event stream. */
function message(answer: HttpAnswer): Record<string, unknown> | undefined {
  const type = answer.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('text/event-stream')) return jsonObject(answer.text);
  for (const event of answer.text.split(/\r?\n\r?\n/)) {
    const data = event.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
    const doc = data ? jsonObject(data) : undefined;
    if (doc) return doc;
  }
  return undefined;
}

/** Checks that a call was answered: 200 with the JSON-RPC result of this request's id. */
export function checkAnswered(answer: HttpAnswer, method: string, id: number, url: string): void {
  const what = `resource call ${method}`;
  if (answer.status !== 200) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: POST ${url} answered ${describeAnswer(answer)}`);
  const msg = message(answer);
  if (msg === undefined || msg['jsonrpc'] !== '2.0' || msg['id'] !== id) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: POST ${url} answered 200 without the JSON-RPC response to request ${id}`);
  if (msg['error'] !== undefined) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: the server answered a JSON-RPC error ${JSON.stringify(msg['error'])}`);
  if (!('result' in msg)) throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: the JSON-RPC response to request ${id} has no result`);
}
