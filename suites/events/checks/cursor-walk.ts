import * as fc from 'fast-check';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, CheckResponse, FailureInput } from '../../../src/engine/suite-module.js';
import { field, nowMs, ok, seconds } from './support.js';

/** One generated walk: page size, order, and how many events are posted after each page. */
interface Walk {
  limit: number;
  sort: 'timestamp' | '-timestamp';
  postsAfterPage: number[];
}

/** Events posted before the walk, so it spans several pages whatever else the stream holds. */
const SEEDED = 6;
/** Pages a walk reads at most: a cursor that never ends is a finding, not a hang. */
const MAX_PAGES = 60;

interface Page {
  ids: string[];
  timestamps: number[];
  cursor: string | undefined;
  res: CheckResponse;
}

function readPage(res: CheckResponse): Page | string {
  const data = field(res.body, 'data');
  if (!ok(res) || !Array.isArray(data)) return `GET /api/v2/events answered ${res.status} without a data array`;
  const ids: string[] = [];
  const timestamps: number[] = [];
  for (const item of data) {
    const id = field(item, 'id');
    const at = field(field(item, 'attributes'), 'timestamp');
    if (typeof id !== 'string') return `an event of data has no string id`;
    ids.push(id);
    timestamps.push(typeof at === 'string' ? Date.parse(at) : NaN);
  }
  const after = field(field(field(res.body, 'meta'), 'page'), 'after');
  return { ids, timestamps, cursor: typeof after === 'string' && after !== '' && ids.length ? after : undefined, res };
}

/**
 * `events.cursorWalk`: GET /api/v2/events with `page[cursor]` (the same parameters repeated with
 * the cursor from `meta.page.after`, spec 002 G) walks a stream that keeps growing while it is
 * paged: every event the stream held when the walk began comes exactly once, no event comes
 * twice, and the pages keep the requested order. Walks (page size, order, events posted between
 * pages) are generated and a failing one is shrunk.
 */
export const cursorWalk = defineCheck<{ runs?: number }>({
  description: 'a v2 cursor walk over a growing stream returns every event once, in the requested order (generated walks, shrunk)',
  args: { type: 'object', additionalProperties: false, properties: { runs: { type: 'integer', minimum: 1 } } },
  judges: 'case',
  async run(ctx: CheckContext, args) {
    // the walk's events happen 90 minutes ahead (the spec allows up to two hours), in a window
    // of their own: other cases post at the present, so no other event enters it
    const at = nowMs(ctx) + 90 * 60_000;
    const window = { 'filter[from]': String(at - 60_000), 'filter[to]': String(at + 60_000) };
    for (let i = 0; i < SEEDED; i++) {
      const res = await ctx.request({ operation: 'postEvent', json: { title: `specgate walk ${i}`, text: 'seeded for a cursor walk', date_happened: seconds(at) } });
      if (!ok(res)) return ctx.fail({ message: `POST /api/v1/events answered ${res.status}; cannot seed the walk`, actual: res.status, exchange: res.exchange });
    }
    const walks = fc.record({
      limit: fc.integer({ min: 1, max: 5 }),
      sort: fc.constantFrom<'timestamp' | '-timestamp'>('timestamp', '-timestamp'),
      postsAfterPage: fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 6 }),
    });
    await ctx.property(walks, (w) => walkOnce(ctx, window, at, w), { label: 'events.cursorWalk', ...(args.runs ? { runs: args.runs } : {}) });
  },
});

/** Reads the whole window with one request per page and nothing posted (what the stream holds now). */
async function snapshot(ctx: CheckContext, window: Record<string, string>, sort: Walk['sort']): Promise<string[] | Omit<FailureInput, 'requirement'>> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const res = await ctx.request({ operation: 'listEventsV2', query: { ...window, sort, 'page[limit]': 50, ...(cursor ? { 'page[cursor]': cursor } : {}) } });
    const page = readPage(res);
    if (typeof page === 'string') return { message: page, exchange: res.exchange };
    ids.push(...page.ids);
    if (!page.cursor) return ids;
    cursor = page.cursor;
  }
  return { message: `the cursor did not end after ${MAX_PAGES} pages of 50` };
}

async function walkOnce(ctx: CheckContext, window: Record<string, string>, at: number, w: Walk): Promise<Omit<FailureInput, 'requirement'> | undefined> {
  const before = await snapshot(ctx, window, w.sort);
  if (!Array.isArray(before)) return before;
  const seen = new Map<string, number>();
  let last: number | undefined;
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const res = await ctx.request({ operation: 'listEventsV2', query: { ...window, sort: w.sort, 'page[limit]': w.limit, ...(cursor ? { 'page[cursor]': cursor } : {}) } });
    const page = readPage(res);
    if (typeof page === 'string') return { message: page, exchange: res.exchange };
    if (page.ids.length > w.limit) return { message: `page ${n + 1} holds ${page.ids.length} events; page[limit] was ${w.limit}`, exchange: res.exchange };
    for (const [i, id] of page.ids.entries()) {
      if (seen.has(id)) return { message: `event ${id} came twice: on page ${(seen.get(id) ?? 0) + 1} and again on page ${n + 1}`, exchange: res.exchange };
      seen.set(id, n);
      const at = page.timestamps[i] as number;
      if (last !== undefined && !Number.isNaN(at) && (w.sort === 'timestamp' ? at < last : at > last))
        return { message: `page ${n + 1} breaks sort=${w.sort}: ${new Date(at).toISOString()} after ${new Date(last).toISOString()}`, exchange: res.exchange };
      if (!Number.isNaN(at)) last = at;
    }
    const posts = w.postsAfterPage[n] ?? 0;
    for (let k = 0; k < posts; k++) {
      const p = await ctx.request({ operation: 'postEvent', json: { title: `specgate during walk ${n}.${k}`, text: 'posted while a cursor walk was under way', date_happened: seconds(at) } });
      if (!ok(p)) return { message: `POST /api/v1/events answered ${p.status} during the walk`, exchange: p.exchange };
    }
    if (!page.cursor) break;
    cursor = page.cursor;
    if (n === MAX_PAGES - 1) return { message: `the cursor did not end after ${MAX_PAGES} pages of ${w.limit}` };
  }
  const missing = before.filter((id) => !seen.has(id));
  if (missing.length) return { message: `${missing.length} of the ${before.length} events the stream held when the walk began never came (first: ${missing.slice(0, 3).join(', ')})`, expected: before.length, actual: before.length - missing.length };
  return undefined;
}
