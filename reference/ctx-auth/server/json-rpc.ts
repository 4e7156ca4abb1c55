import { PROTOCOL_VERSION } from '../model/protocol.js';

/**
 * The little the protected resource does once a call is authorized: it answers JSON-RPC 2.0
 * requests (spec 000 part C protects a JSON-RPC server; what it serves is not the suite's
 * subject). Requests get a result, notifications (no `id`) nothing.
 */
export interface RpcReply {
  /** Results for the requests among the messages, in order; empty when all were notifications. */
  responses: unknown[];
  /** Whether the body was a batch (an array), so the responses go back as one. */
  batch: boolean;
  /** Whether one of the requests is `initialize` (it opens a session). */
  initialize: boolean;
}

export const SERVER_INFO = { name: 'specgate ctx-auth reference', version: '1.0.0' };

function resultFor(method: string): unknown {
  switch (method) {
    case 'initialize':
      return { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: SERVER_INFO };
    case 'tools/list':
      return { tools: [] };
    default:
      return {};
  }
}

/** Answers a parsed JSON-RPC body; undefined when it is not a JSON-RPC message or batch. */
export function answerRpc(body: unknown): RpcReply | undefined {
  const batch = Array.isArray(body);
  const messages: unknown[] = batch ? (body as unknown[]) : [body];
  if (messages.length === 0) return undefined;
  const responses: unknown[] = [];
  let initialize = false;
  for (const m of messages) {
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return undefined;
    const msg = m as Record<string, unknown>;
    if (typeof msg['method'] !== 'string') continue; // a response from the client: nothing to answer
    if (msg['method'] === 'initialize') initialize = true;
    if (!('id' in msg)) continue;
    responses.push({ jsonrpc: '2.0', id: msg['id'], result: resultFor(msg['method']) });
  }
  return { responses, batch, initialize };
}

/** A JSON-RPC error with no request to refer to (`id` null). */
export function rpcError(code: number, message: string): unknown {
  return { jsonrpc: '2.0', id: null, error: { code, message } };
}
