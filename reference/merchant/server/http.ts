import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequestBody } from '../../../src/targets/read-request-body.js';
import type { Answer } from './answers.js';

/** The largest request body the service reads (custombatch envelopes included). */
const MAX_BODY = 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
  return readRequestBody(req, MAX_BODY, 'the reference merchant service');
}

/** A request body as JSON: undefined when empty, `bad` when it does not parse. */
export function parseJsonBody(raw: string): { ok: true; value: unknown } | { ok: false } {
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Writes an answer: JSON for a body, nothing at all for 204. */
export function send(res: ServerResponse, a: Answer): void {
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...a.headers };
  if (a.status === 204 || a.body === undefined) {
    res.writeHead(a.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(a.body);
  res.writeHead(a.status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}
