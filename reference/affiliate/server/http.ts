import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequestBody } from '../../../src/targets/read-request-body.js';
export { headersOf } from '../../../src/targets/read-request-body.js';
import type { Answer } from './answers.js';
import { jsonBytes } from './json-text.js';

/** The largest request body the platform reads (a lead request is a few hundred bytes). */
const MAX_BODY = 64 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
  return readRequestBody(req, MAX_BODY, 'the reference affiliate platform');
}


/** The media type of a Content-Type header, lower case, parameters left out. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Writes an answer: JSON for a body ("Response bodies are JSON"), HTML for a page. */
export function send(res: ServerResponse, a: Answer): void {
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...a.headers };
  const [text, type] = a.html !== undefined ? [a.html, 'text/html; charset=utf-8'] : a.body !== undefined ? [jsonBytes(a.body), 'application/json; charset=utf-8'] : [undefined, undefined];
  if (text === undefined || type === undefined) {
    res.writeHead(a.status, headers);
    res.end();
    return;
  }
  res.writeHead(a.status, { 'content-type': type, ...headers, 'content-length': String(typeof text === 'string' ? Buffer.byteLength(text) : text.length) });
  res.end(text);
}
