import { nodeExchange, type NodeAnswer, type NodeExchangeOptions } from '../../../src/targets/node-exchange.js';
import { SpecgateError } from '../../../src/errors.js';

/** Every request is given this long to answer; a client under test must not hang its run. */
export const REQUEST_TIMEOUT_MS = 10_000;

export type HttpAnswer = NodeAnswer;

/** What sends one request. */
export type Send = (url: string, options: NodeExchangeOptions) => Promise<NodeAnswer>;

let send: Send = nodeExchange;

/**
 * Wraps what every request is sent with: the seam where a planted-fault client changes what
 * goes on the wire for a decision behaviour.ts has no step for. The reference client never calls it.
 */
export function wrapSend(wrap: (send: Send) => Send): void {
  send = wrap(send);
}

/**
 * One HTTP request over node:http (src/targets/node-exchange.ts), never following a redirect
 * (the authorization step reads `Location` itself, and no other endpoint of the flow is expected
 * to redirect). `what` names the step in the error a failure throws, so the client's stderr says
 * which request failed and why (no answer in time, no body, or no connection).
 */
export async function request(what: string, url: string, init: Omit<NodeExchangeOptions, 'timeoutMs'> = {}): Promise<HttpAnswer> {
  try {
    return await send(url, { ...init, timeoutMs: REQUEST_TIMEOUT_MS });
  } catch (e) {
    if (e instanceof SpecgateError) throw new SpecgateError(e.code, `${what}: ${e.message}`);
    // a URL that cannot be parsed, say
    throw new SpecgateError('SG_TARGET_UNREACHABLE', `${what}: ${init.method ?? 'GET'} ${url} failed (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** The JSON object of a body, or undefined when it is not one. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function stringField(o: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A short account of a refused answer for error messages: status, OAuth error and description. */
export function describeAnswer(a: HttpAnswer): string {
  const body = jsonObject(a.text);
  const error = stringField(body, 'error');
  const description = stringField(body, 'error_description');
  if (error) return `${a.status} ${error}${description ? ` (${description})` : ''}`;
  const snippet = a.text.trim().slice(0, 120);
  return snippet ? `${a.status}: ${snippet}` : String(a.status);
}
