import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJsonLossless } from '../../../src/targets/body-parse.js';
import { readRequestBody } from '../../../src/targets/read-request-body.js';
export { headersOf } from '../../../src/targets/read-request-body.js';
import { untouchedBytes } from './answer-bytes.js';
import type { Answer } from './answers.js';
import { jsonText } from './json-text.js';

/** The largest request body the service reads (an event is at most a few kilobytes). */
const MAX_BODY = 256 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
  return readRequestBody(req, MAX_BODY, 'the reference events service');
}

/** A request body as JSON, integers beyond 2^53 kept exact as bigint: undefined when empty. */
export function parseJsonBody(raw: string): { ok: true; value: unknown } | { ok: false } {
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: parseJsonLossless(raw, 'the request body') };
  } catch {
    return { ok: false };
  }
}


/**
 * Writes an answer: JSON text (see json-text.ts) for a body, nothing for 304 or a missing body.
 * A list page whose body nobody read is written from its ready bytes (see answer-bytes.ts); they
 * are asked for before `body`, since reading `body` builds the object and drops them.
 */
export function send(res: ServerResponse, a: Answer): void {
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...a.headers };
  const ready = a.status === 304 ? undefined : untouchedBytes(a);
  if (ready === undefined && (a.status === 304 || a.body === undefined)) {
    res.writeHead(a.status, headers);
    res.end();
    return;
  }
  // encoded once: the length and the bytes sent come from the same buffer
  const bytes = ready ?? Buffer.from(jsonText(a.body), 'utf8');
  res.writeHead(a.status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) });
  res.end(bytes);
}
