import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpecgateError } from '../../../src/errors.js';
import type { Answer } from './answers.js';

/** The largest request body the service reads (custombatch envelopes included). */
const MAX_BODY = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new SpecgateError('SG_TARGET_TOO_LARGE', `request body too large: the reference merchant service reads at most ${MAX_BODY} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
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
