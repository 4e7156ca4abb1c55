import { describe, expect, it } from 'vitest';
import type { CheckContext, CheckResponse } from '../../../../src/engine/checks/context.js';
import type { Exchange } from '../../../../src/engine/model.js';
import type { HttpRequestSpec } from '../../../../src/engine/model.js';
import { LISTS, sharedWalk, walk } from '../../../../suites/affiliate/checks/list-fetch.js';

/** A postback list of `count` records, paged as the platform pages it. */
function platform(count: number): { sent: string[]; answer(spec: HttpRequestSpec): CheckResponse } {
  const sent: string[] = [];
  return {
    sent,
    answer(spec) {
      const query = (spec.query ?? {}) as Record<string, unknown>;
      const page = Number(query['page']);
      const size = Number(query['itemsPerPage']);
      sent.push(JSON.stringify(query));
      const items = Array.from({ length: count }, (_, i) => ({ id: i + 1 })).slice((page - 1) * size, page * size);
      const body = { items, total: { items: count } };
      const exchange: Exchange = { kind: 'http', summary: `GET postbacks page ${page} -> 200` };
      return { status: 200, headers: {}, bodyBytes: new Uint8Array(0), bodyText: JSON.stringify(body), body, durationMs: 1, exchange };
    },
  };
}

/** What a case's context needs for a walk: its requests, its recorded exchanges, the run's shared observations. */
function caseContext(caseId: string, answer: (spec: HttpRequestSpec) => CheckResponse, observations: Map<string, Promise<unknown>>): { ctx: CheckContext; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const ctx = {
    caseId,
    signal: new AbortController().signal,
    observations,
    exchange: (ex: Exchange) => void exchanges.push(ex),
    request: async (spec: HttpRequestSpec) => {
      const res = answer(spec);
      exchanges.push(res.exchange);
      return res;
    },
  } as unknown as CheckContext;
  return { ctx, exchanges };
}

describe('sharedWalk', () => {
  it('walks a list once for the cases of a run that read it with the same query and size; each case sees the walk and its exchanges', async () => {
    const p = platform(7);
    const run = new Map<string, Promise<unknown>>();
    const a = caseContext('a', (s) => p.answer(s), run);
    const b = caseContext('b', (s) => p.answer(s), run);
    const [wa, wb] = await Promise.all([sharedWalk(a.ctx, LISTS.postbacks, {}, 3), sharedWalk(b.ctx, LISTS.postbacks, {}, 3)]);
    // pages of 3, 3 and 1 records: one walk
    expect(p.sent).toHaveLength(3);
    for (const w of [wa, wb]) expect(w.ok && w.items.map((r) => (r as { id: number }).id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(a.exchanges.map((x) => x.summary)).toEqual(['GET postbacks page 1 -> 200', 'GET postbacks page 2 -> 200', 'GET postbacks page 3 -> 200']);
    expect(b.exchanges).toEqual(a.exchanges);
    // the same answer as the case's own walk
    const own = await walk(caseContext('c', (s) => p.answer(s), new Map()).ctx, LISTS.postbacks, {}, 3);
    expect(own).toEqual(wa);
  });

  it('walks again for another query or page size, and in another run (a case selected alone)', async () => {
    const p = platform(4);
    const run = new Map<string, Promise<unknown>>();
    await sharedWalk(caseContext('a', (s) => p.answer(s), run).ctx, LISTS.postbacks, {}, 10);
    await sharedWalk(caseContext('b', (s) => p.answer(s), run).ctx, LISTS.postbacks, {}, 2);
    await sharedWalk(caseContext('c', (s) => p.answer(s), run).ctx, LISTS.postbacks, { offerID: 1, type: 'lead' }, 10);
    await sharedWalk(caseContext('d', (s) => p.answer(s), new Map()).ctx, LISTS.postbacks, {}, 10);
    // 1 page + 3 pages (2, 2, 0) + 1 page + 1 page
    expect(p.sent).toHaveLength(6);
    // a query written in another order is the same walk
    await sharedWalk(caseContext('e', (s) => p.answer(s), run).ctx, LISTS.postbacks, { type: 'lead', offerID: 1 }, 10);
    expect(p.sent).toHaveLength(6);
  });

  it('hands a walk that met a failing page to no later case: the next case walks again', async () => {
    const p = platform(4);
    let failNext = true;
    const answer = (spec: HttpRequestSpec): CheckResponse => {
      const res = p.answer(spec);
      if (!failNext) return res;
      failNext = false;
      return { ...res, status: 503, body: { error: 'busy' }, bodyText: '{"error":"busy"}' };
    };
    const run = new Map<string, Promise<unknown>>();
    const first = await sharedWalk(caseContext('a', answer, run).ctx, LISTS.postbacks, {}, 10);
    expect(first.ok).toBe(false);
    const second = await sharedWalk(caseContext('b', answer, run).ctx, LISTS.postbacks, {}, 10);
    expect(second.ok && second.items).toHaveLength(4);
    // one failing page, then the second case's own walk of one page
    expect(p.sent).toHaveLength(2);
  });
});
