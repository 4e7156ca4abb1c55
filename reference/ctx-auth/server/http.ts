import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequestBody } from '../../../src/targets/read-request-body.js';
export { headersOf } from '../../../src/targets/read-request-body.js';
import type { CtxAnswer } from './answers.js';

/** The largest request body read (OAuth forms and JSON-RPC calls are small). */
const MAX_BODY = 64 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
  return readRequestBody(req, MAX_BODY, 'the ctx-auth reference server');
}


/** Query parameters with every value of each name, in order. */
export function queryRecord(params: URLSearchParams): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of params) (out[k] ??= []).push(v);
  return out;
}

/** The media type of a Content-Type header, lower case, parameters left out. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The body text an answer sends ('' when none). */
export function answerText(a: CtxAnswer): string {
  if (a.json !== undefined) return JSON.stringify(a.json);
  return a.text ?? '';
}

/** Writes an answer; returns the headers sent (lower-case names) for the observation log. */
export function send(res: ServerResponse, a: CtxAnswer, head: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(a.headers ?? {})) headers[k.toLowerCase()] = v;
  const text = answerText(a);
  if (a.json !== undefined) headers['content-type'] ??= 'application/json';
  else if (a.text !== undefined) headers['content-type'] ??= 'text/plain; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(a.status, headers);
  res.end(head ? undefined : text);
  return headers;
}
