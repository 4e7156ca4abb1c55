import { afterEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { STAND_IN_MAX_BODY, startStandIn, type StandIn } from '../../../src/engine/api/stand-in-server.js';
import { notesTable } from './example-table.js';

const AUTH = { authorization: 'Bearer good' };

async function send(s: StandIn, method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH): Promise<{ status: number; body: unknown }> {
  const res = await request(`${s.url}${path}`, {
    method: method as 'GET',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('the recording stand-in server', () => {
  let s: StandIn | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });

  it('answers good requests from the resource store and records them without violations', async () => {
    s = await startStandIn({ table: notesTable(), credential: 'Bearer good' });
    const created = await send(s, 'POST', '/notes', { title: 'one', body: 'b' });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(await send(s, 'GET', `/notes/${id}`)).toEqual({ status: 200, body: { title: 'one', body: 'b', id } });
    expect((await send(s, 'PATCH', `/notes/${id}`, { title: 'two' })).body).toEqual({ title: 'two', body: 'b', id });
    const page = await send(s, 'GET', '/notes?limit=1');
    expect(page.body).toEqual({ items: [{ title: 'two', body: 'b', id }], next_cursor: null });
    expect((await send(s, 'DELETE', `/notes/${id}`)).status).toBe(204);
    expect((await send(s, 'GET', `/notes/${id}`)).status).toBe(404);
    expect((await send(s, 'GET', '/health', undefined, {})).status).toBe(200);
    expect(s.exchanges.map((e) => e.operation)).toEqual(['createNote', 'getNote', 'updateNote', 'listNotes', 'deleteNote', 'getNote', 'health']);
    expect(s.exchanges.every((e) => e.violations.length === 0)).toBe(true);
  });

  it('answers a body above what it reads with 413, records it with that violation, and goes on answering', async () => {
    s = await startStandIn({ table: notesTable(), credential: 'Bearer good' });
    const url = `${s.url}/notes`;
    // sent in chunks with no length: only what arrives tells the size
    async function* flood(): AsyncGenerator<Buffer> {
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      for (let sent = 0; sent <= STAND_IN_MAX_BODY; sent += chunk.length) yield chunk;
    }
    const res = await request(url, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: Readable.from(flood()) }).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    // the stand-in may close the connection before the client has sent everything
    if (!(res instanceof Error)) {
      expect(res.statusCode).toBe(413);
      await res.body.text();
    }
    expect(s.exchanges).toHaveLength(1);
    expect(s.exchanges[0]?.violations).toEqual([`the body is larger than the ${STAND_IN_MAX_BODY} bytes the stand-in reads`]);
    expect(s.exchanges[0]?.response.status).toBe(413);
    expect((await send(s, 'GET', '/notes')).status).toBe(200);
  });

  it('records every way a request breaks the table, and answers as the table implies', async () => {
    s = await startStandIn({ table: notesTable(), credential: 'Bearer good' });
    expect((await send(s, 'PUT', '/notes')).status).toBe(405);
    expect((await send(s, 'GET', '/nowhere')).status).toBe(404);
    expect((await send(s, 'GET', '/notes', undefined, {})).status).toBe(401);
    expect((await send(s, 'GET', '/notes', undefined, { authorization: 'Bearer forged' })).status).toBe(401);
    expect((await send(s, 'GET', '/notes?limit=0')).status).toBe(400);
    expect((await send(s, 'GET', '/notes?limit=many')).status).toBe(400);
    expect((await send(s, 'POST', '/notes', { title: '', colour: 'red' })).status).toBe(400);
    expect((await send(s, 'POST', '/notes', '{not json')).status).toBe(400);
    const v = s.exchanges.map((e) => e.violations.join(' | '));
    expect(v[0]).toMatch(/PUT is not an operation on \/notes \(the table lists GET, POST\)/);
    expect(v[1]).toMatch(/no operation has a path that fits \/nowhere/);
    expect(v[2]).toMatch(/listNotes needs credentials in Authorization/);
    expect(v[3]).toMatch(/credential the API never issued/);
    expect(v[4]).toMatch(/parameter limit value 0 is below 1/);
    expect(v[5]).toMatch(/parameter limit must be an integer/);
    expect(v[6]).toMatch(/createNote body: .*title: expected at least 1 characters, got ""/);
    expect(v[6]).toMatch(/has a field `colour` the schema does not allow/);
    expect(v[7]).toMatch(/the body is not JSON/);
    expect(s.exchanges[4]?.operation).toBe('listNotes');
  });

  it('answers a batch with one result per item and refuses one above the maximum', async () => {
    s = await startStandIn({ table: notesTable() });
    const ok = await send(s, 'POST', '/notes/batch', { items: [{ title: 'a' }, { title: 'b' }] });
    expect(ok.status).toBe(200);
    expect((ok.body as { results: unknown[] }).results).toHaveLength(2);
    const tooMany = await send(s, 'POST', '/notes/batch', { items: Array.from({ length: 11 }, () => ({ title: 'x' })) });
    expect(tooMany.status).toBe(400);
  });

  it('lets a suite answer an operation itself', async () => {
    s = await startStandIn({ table: notesTable(), handlers: { health: () => ({ status: 200, body: { status: 'ok', from: 'suite' } }) } });
    expect((await send(s, 'GET', '/health', undefined, {})).body).toEqual({ status: 'ok', from: 'suite' });
  });
});
