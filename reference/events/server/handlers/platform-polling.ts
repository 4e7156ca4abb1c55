import { createHash } from 'node:crypto';
import { POLL_INTERVAL_SECONDS } from '../../model/timeline.js';
import type { Answer, OperationCall } from '../answers.js';

/** A strong, quoted ETag of the parts that make a response what it is. */
export function etagOf(parts: readonly unknown[]): string {
  return `"${createHash('sha1').update(JSON.stringify(parts)).digest('hex')}"`;
}

/**
 * Whether `If-None-Match` names `etag`: one of its comma-separated tags equals it (weak
 * validators compare by their opaque part), or it is `*`.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (t: string): string => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/**
 * A pollable platform answer (H, Polling rules): `ETag` and `X-Poll-Interval` on every 200,
 * and 304 without a body (same headers) when the request's `If-None-Match` names the current
 * ETag.
 */
export function pollable(call: OperationCall, etag: string, body: unknown, headers: Record<string, string> = {}): Answer {
  const polling = { etag, 'x-poll-interval': String(POLL_INTERVAL_SECONDS) };
  if (ifNoneMatchHits(call.headers['if-none-match'], etag)) return { status: 304, headers: polling };
  return { status: 200, body, headers: { ...headers, ...polling } };
}

/** The `Link` header of a paged list: next and last, first and prev, as the page allows. */
export function linkHeader(base: string, query: URLSearchParams, page: number, perPage: number, total: number): string | undefined {
  const last = Math.max(1, Math.ceil(total / perPage));
  const at = (p: number): string => {
    const q = new URLSearchParams(query);
    q.set('per_page', String(perPage));
    q.set('page', String(p));
    return `<${base}?${q.toString()}>`;
  };
  const links: string[] = [];
  if (page < last) links.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
  if (page > 1) links.push(`${at(1)}; rel="first"`, `${at(Math.min(page - 1, last))}; rel="prev"`);
  return links.length ? links.join(', ') : undefined;
}
