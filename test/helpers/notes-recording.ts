/**
 * A session of a client of the notes example service, recorded as HAR entries: each request is
 * sent with undici and written as a recording proxy would write it.
 */
import { request } from 'undici';
import { harEntry } from '../targets/har/har-builder.js';

/** Sends one request with undici and returns it as a HAR entry (what a recording proxy would write). */
export async function record(base: string, method: string, path: string, opts: { headers?: Record<string, string>; json?: unknown } = {}): Promise<{ entry: Record<string, unknown>; body: unknown }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}), ...(opts.json !== undefined ? { 'content-type': 'application/json' } : {}) };
  const requestBody = opts.json !== undefined ? JSON.stringify(opts.json) : undefined;
  const res = await request(`${base}${path}`, { method: method as 'GET', headers, ...(requestBody !== undefined ? { body: requestBody } : {}) });
  const text = await res.body.text();
  const responseHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') responseHeaders[k] = v;
  const entry = harEntry({ method, url: `${base}${path}`, requestHeaders: headers, ...(requestBody !== undefined ? { requestBody } : {}), status: res.statusCode, responseHeaders, body: text });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { entry, body };
}

/** A session of a client using the service: every operation once, a 404, a request without token, and a stray request. */
export async function recordSession(base: string, token: string): Promise<Record<string, unknown>[]> {
  const entries: Record<string, unknown>[] = [];
  const AUTH = { authorization: `Bearer ${token}` };
  const rec = async (method: string, path: string, opts: { headers?: Record<string, string>; json?: unknown } = {}): Promise<unknown> => {
    const { entry, body } = await record(base, method, path, opts);
    entries.push(entry);
    return body;
  };
  await rec('GET', '/health');
  const created = (await rec('POST', '/notes', { headers: AUTH, json: { title: 'groceries', body: 'milk' } })) as { id: string };
  await rec('GET', `/notes/${created.id}`, { headers: AUTH });
  await rec('PATCH', `/notes/${created.id}`, { headers: AUTH, json: { title: 'shopping' } });
  await rec('GET', '/notes?limit=2', { headers: AUTH });
  await rec('POST', '/notes/batch', { headers: AUTH, json: { items: [{ title: 'a' }, { title: 'b' }] } });
  const tag = (await rec('POST', '/tags', { headers: AUTH, json: { name: 'home' } })) as { id: string };
  await rec('GET', '/tags', { headers: AUTH });
  await rec('DELETE', `/tags/${tag.id}`, { headers: AUTH });
  await rec('DELETE', `/notes/${created.id}`, { headers: AUTH });
  await rec('GET', `/notes/${created.id}`, { headers: AUTH });
  await rec('GET', '/notes');
  await rec('GET', '/favicon.ico');
  return entries;
}

