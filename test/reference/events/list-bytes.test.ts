import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { VirtualClock } from '../../../src/engine/clock.js';
import { EventsModel } from '../../../reference/events/model/events-model.js';
import { dateHappened } from '../../../reference/events/model/monitor-event.js';
import { MON_API_KEY, MON_APP_KEY } from '../../../reference/events/model/monitor-keys.js';
import { untouchedBytes } from '../../../reference/events/server/answer-bytes.js';
import type { Answer, Handler, HandlerContext, OperationCall } from '../../../reference/events/server/answers.js';
import { MONITOR_HANDLERS } from '../../../reference/events/server/handlers/monitor.js';
import { jsonText } from '../../../reference/events/server/json-text.js';
import { startEventsServer, type EventsServerOptions, type RunningEventsServer } from '../../../reference/events/server/server.js';

/*
 * The event lists are written from bytes kept per event (answer-bytes.ts, monitor-view-bytes.ts)
 * instead of from the body object. These tests hold the two to the same bytes, and check that a
 * variant of the service that reads, changes or replaces the body is answered from the body.
 */

const NOW = Date.UTC(2026, 0, 1);
const HEADERS = { 'mon-api-key': MON_API_KEY, 'mon-application-key': MON_APP_KEY };

function seededModel(): EventsModel {
  const model = new EventsModel({ clock: new VirtualClock(NOW), seed: 7 });
  // characters beyond ASCII and beyond the basic plane, so byte and character counts differ
  model.addMonitorEvent({ title: 'Déploiement ✓ 🚀', text: 'naïve "quoted" \\ text\nline two \u2028', host: 'hôte-01', tags: ['env:prød'], timestampMs: NOW - 60_000 });
  model.addMonitorEvent({ title: 'grouped', text: 'first', aggregationKey: 'agg-bytes', timestampMs: NOW - 50_000 });
  model.addMonitorEvent({ title: 'grouped', text: 'second', aggregationKey: 'agg-bytes', timestampMs: NOW - 40_000 });
  return model;
}

function callOf(operationId: string, query: Record<string, string>): OperationCall {
  return { operationId, method: 'GET', path: '/', params: {}, query: new URLSearchParams(query), headers: { ...HEADERS }, body: undefined };
}

function contextOf(model: EventsModel): HandlerContext {
  return { model, monUrl: 'http://127.0.0.1:1', apiUrl: 'http://127.0.0.1:1/platform', handlerOf: (id) => MONITOR_HANDLERS[id] };
}

function handler(id: string): Handler {
  const h = MONITOR_HANDLERS[id];
  if (!h) throw new TypeError(`no handler ${id}`);
  return h;
}

/** The kept bytes of a fresh answer (asked first: reading the body drops them) and the JSON text of its object form. */
function bothForms(a: Answer): { fast: string; object: string } {
  const bytes = untouchedBytes(a);
  expect(bytes, 'the list answer carries ready bytes').toBeDefined();
  return { fast: bytes?.toString('utf8') ?? '', object: jsonText(a.body) };
}

describe('list pages written from kept bytes', () => {
  it('v2: every page of cursor walks (both sorts, small and large pages, a search) equals the JSON of the object form', () => {
    const model = seededModel();
    const ctx = contextOf(model);
    let pages = 0;
    const walks: Record<string, string>[] = [{ 'page[limit]': '7' }, { 'page[limit]': '1000' }, { 'page[limit]': '25', sort: 'timestamp' }, { 'page[limit]': '5', 'filter[query]': 'source:monitor' }, { 'page[limit]': '5', 'filter[query]': 'host:hôte-01' }];
    for (const extra of walks) {
      let cursor: string | undefined;
      let walked = 0;
      do {
        const a = handler('listEventsV2')(callOf('listEventsV2', { 'filter[from]': '0', ...extra, ...(cursor ? { 'page[cursor]': cursor } : {}) }), ctx);
        expect(a.status).toBe(200);
        const { fast, object } = bothForms(a);
        expect(fast).toBe(object);
        const parsed = JSON.parse(fast) as { data: unknown[]; meta: { page?: { after?: string } } };
        walked += parsed.data.length;
        cursor = parsed.meta.page?.after;
        pages++;
      } while (cursor !== undefined && walked < 2000);
      expect(walked).toBeGreaterThan(0);
    }
    expect(pages).toBeGreaterThan(5);
  });

  it('v1: several pages and windows (aggregated and not, with tags) equal the JSON of the object form', () => {
    const model = seededModel();
    const ctx = contextOf(model);
    const times = model.monitor.all().map(dateHappened);
    const start = String(Math.min(...times));
    const end = String(Math.max(...times));
    const queries: Record<string, string>[] = [
      { start, end },
      { start, end, unaggregated: 'true' },
      { start, end, exclude_aggregate: 'true' },
      { start, end, page: '1' },
      { start, end, tags: 'env:prød' },
      { start: String(Math.floor((NOW - 120_000) / 1000)), end: String(Math.floor(NOW / 1000)) },
    ];
    let nonEmpty = 0;
    for (const q of queries) {
      const a = handler('listEventsV1')(callOf('listEventsV1', q), ctx);
      expect(a.status).toBe(200);
      const { fast, object } = bothForms(a);
      expect(fast).toBe(object);
      if ((JSON.parse(fast) as { events: unknown[] }).events.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(4);
  });

  it('reading the body drops the bytes; the body is built once and copied off the store', () => {
    const model = seededModel();
    const a = handler('listEventsV1')(callOf('listEventsV1', { start: '0', end: String(NOW / 1000) }), contextOf(model));
    const body = a.body;
    expect(untouchedBytes(a)).toBeUndefined();
    expect(a.body).toBe(body);
    const first = (body as { events: { tags: string[]; id: bigint }[] }).events[0];
    first?.tags.push('changed:here');
    const stored = first ? model.monitor.get(first.id) : undefined;
    expect(stored?.tags).not.toContain('changed:here');
  });
});

describe('a variant of the service that changes the list body is answered from the body', () => {
  let running: RunningEventsServer | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  async function serve(opts: EventsServerOptions): Promise<(path: string) => Promise<{ status: number; text: string }>> {
    const model = seededModel();
    const server = await startEventsServer({ model, clock: model.clock, ...opts });
    running = server;
    return async (path) => {
      const res = await request(`${server.url}${path}`, { headers: HEADERS });
      // the next link names the server, whose port differs from one start to the next
      return { status: res.statusCode, text: (await res.body.text()).replaceAll(server.url, 'http://server') };
    };
  }

  const V1 = `/api/v1/events?start=0&end=${NOW / 1000}&unaggregated=true`;
  const V2 = '/api/v2/events?filter%5Bfrom%5D=0&page%5Blimit%5D=50';
  const changeOf = (change: (a: Answer) => Answer): EventsServerOptions => ({
    override: (id, reference) => (id === 'listEventsV1' || id === 'listEventsV2' ? (call, ctx) => change(reference(call, ctx)) : reference),
  });

  it('an override that changes nothing (or only headers) is answered with the reference bytes', async () => {
    const plain = await serve({});
    const expected = [await plain(V1), await plain(V2)];
    await running?.stop();
    const get = await serve(changeOf((a) => {
      a.headers = { 'x-variant': 'yes' };
      return a;
    }));
    expect([await get(V1), await get(V2)]).toEqual(expected);
  });

  it('a change in place of the body object is written', async () => {
    const get = await serve(changeOf((a) => {
      const body = a.body as Record<string, unknown>;
      body['status'] = 'changed in place';
      const list = (body['events'] ?? body['data']) as Record<string, unknown>[];
      const first = list[0];
      if (first) first['type'] = 'changed-item';
      return a;
    }));
    for (const path of [V1, V2]) {
      const got = await get(path);
      expect(got.status).toBe(200);
      const parsed = JSON.parse(got.text) as Record<string, unknown>;
      expect(parsed['status']).toBe('changed in place');
      const list = (parsed['events'] ?? parsed['data']) as Record<string, unknown>[];
      expect(list[0]?.['type']).toBe('changed-item');
    }
  });

  it('a change in place of an item\'s tags shows in that answer only, not in the next (nor in the kept bytes)', async () => {
    let mutate = true;
    const get = await serve(changeOf((a) => {
      if (!mutate) return a;
      const first = (a.body as { events?: { tags: string[] }[] }).events?.[0];
      first?.tags.push('planted:tag');
      return a;
    }));
    expect((await get(V1)).text).toContain('planted:tag');
    mutate = false;
    const after = await get(V1);
    expect(after.text).not.toContain('planted:tag');
    expect(after.text).toContain('"events":[{');
  });

  it('a body assigned, a body removed, and a copied answer with another body are written as given', async () => {
    const assigned = await serve(changeOf((a) => {
      a.body = { replaced: true };
      return a;
    }));
    expect(await assigned(V1)).toEqual({ status: 200, text: '{"replaced":true}' });
    await running?.stop();

    const removed = await serve(changeOf((a) => {
      delete a.body;
      return a;
    }));
    expect(await removed(V2)).toEqual({ status: 200, text: '' });
    await running?.stop();

    const copied = await serve(changeOf((a) => ({ ...a, status: 203, body: { ...(a.body as Record<string, unknown>), status: undefined } })));
    const got = await copied(V1);
    expect(got.status).toBe(203);
    expect(got.text.startsWith('{"events":[')).toBe(true);
    expect(got.text).not.toContain('"status"');
  });
});
