import { V2_DEFAULT_LIMIT, V2_MAX_LIMIT, type MonitorEvent } from './monitor-event.js';
import { compareIn, decodeCursor, encodeCursor, type V2Sort } from './v2-cursor.js';
import { firstIndex, timeWindow } from './time-window.js';
import { parseV2Time } from './v2-time.js';
import { done, invalid, type Outcome } from './outcome.js';

/** The query of GET /api/v2/events (G, its parameter table), parsed. */
export interface V2Query {
  /** Inclusive bounds in milliseconds. Defaults: every event (from 0) up to now. */
  fromMs: number;
  toMs: number;
  /** Default `-timestamp` (newest first). */
  sort: V2Sort;
  /** `page[limit]`: default {@link V2_DEFAULT_LIMIT}, values above {@link V2_MAX_LIMIT} served as it. */
  limit: number;
  /** `page[cursor]`, as the client sent it. */
  cursor?: string;
  /** `filter[query]` (see {@link matchesQuery}). */
  query?: string;
}

/** Parses the query at `now`; 400-worthy problems are reported together. */
export function parseV2Query(get: (name: string) => string | null, now: number): Outcome<V2Query> {
  const problems: string[] = [];
  const time = (name: string, fallback: number): number => {
    const v = get(name);
    if (v === null || v === '') return fallback;
    const ms = parseV2Time(v, now);
    if (ms === undefined) problems.push(`${name} must be a timestamp in milliseconds`);
    return ms ?? fallback;
  };
  const fromMs = time('filter[from]', 0);
  const toMs = time('filter[to]', now);
  const sortText = get('sort');
  const sort: V2Sort = sortText === 'timestamp' ? 'timestamp' : '-timestamp';
  if (sortText !== null && sortText !== 'timestamp' && sortText !== '-timestamp') problems.push('sort must be timestamp or -timestamp');
  const limitText = get('page[limit]');
  let limit = V2_DEFAULT_LIMIT;
  if (limitText !== null && limitText !== '') {
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1) problems.push('page[limit] must be a positive integer');
    else limit = Math.min(Number(limitText), V2_MAX_LIMIT);
  }
  const cursor = get('page[cursor]');
  const query = get('filter[query]');
  if (problems.length) return invalid(...problems);
  return done({ fromMs, toMs, sort, limit, ...(cursor ? { cursor } : {}), ...(query ? { query } : {}) });
}

/**
 * A small subset of the events search syntax (the spec does not show it): terms separated by
 * spaces, all of which must hold. `source:`, `priority:`, `status:`, `host:` and `service:`
 * compare those fields; `tags:x` or any other `key:value` needs that tag; a bare word must occur
 * in the title or text; `*` matches everything.
 */
export function matchesQuery(e: MonitorEvent, query: string): boolean {
  return query
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => {
      if (term === '*') return true;
      const colon = term.indexOf(':');
      if (colon < 0) return `${e.title}\n${e.text}`.toLowerCase().includes(term.toLowerCase());
      const key = term.slice(0, colon);
      const value = term.slice(colon + 1);
      switch (key) {
        case 'source':
          return e.sourceTypeName.toLowerCase() === value.toLowerCase();
        case 'priority':
          return e.priority === value;
        case 'status':
          return e.alertType === value;
        case 'host':
          return e.host === value;
        case 'service':
          return e.service === value;
        case 'tags':
        case 'tag':
          return e.tags.includes(value);
        default:
          return e.tags.includes(term);
      }
    });
}

/** Every event in [from, to] that the search query matches, in the order the query sorts. */
export function matchV2(events: Iterable<MonitorEvent>, q: V2Query): MonitorEvent[] {
  const out: MonitorEvent[] = [];
  for (const e of events) if (e.timestampMs >= q.fromMs && e.timestampMs <= q.toMs && (!q.query || matchesQuery(e, q.query))) out.push(e);
  return out.sort((a, b) => compareIn(q.sort, a, b));
}

/**
 * {@link matchV2} for events already oldest first (timestamp, then id), as the store keeps
 * them: the time window is cut out by binary search and reversed for `-timestamp` instead of
 * going through and sorting every event, so a page of a large stream costs no sort.
 */
export function matchV2InTimeOrder(oldestFirst: readonly MonitorEvent[], q: V2Query): MonitorEvent[] {
  const window = timeWindow(oldestFirst, q.fromMs, q.toMs);
  if (q.sort === '-timestamp') window.reverse();
  const query = q.query;
  return query ? window.filter((e) => matchesQuery(e, query)) : window;
}

/** One page of a cursor walk, and the cursor of the next page when there are more events. */
export interface V2Page {
  events: MonitorEvent[];
  after?: string;
}

/** How a list of matches is cut into pages by cursor. */
export type V2Pager = (matches: readonly MonitorEvent[], q: V2Query) => Outcome<V2Page>;

/**
 * The reference's pager: a cursor holds the sort key of the last event returned (see
 * v2-cursor.ts), and a page holds the `limit` events strictly after it. A cursor from a walk
 * in the other sort order is refused. `matches` are in the order the query sorts (as
 * {@link matchV2} gives them), so the cursor's place is found by binary search.
 */
export const keyPager: V2Pager = (matches, q) => {
  let start = 0;
  if (q.cursor !== undefined) {
    const key = decodeCursor(q.cursor);
    if (!key) return invalid('page[cursor] is not a cursor this service returned');
    if (key.sort !== q.sort) return invalid('page[cursor] belongs to a walk in another sort order; repeat the same parameters with it');
    start = firstIndex(matches, (e) => compareIn(q.sort, e, key) > 0);
  }
  const events = matches.slice(start, start + q.limit);
  const last = events[events.length - 1];
  return done({ events, ...(last && matches.length - start > q.limit ? { after: encodeCursor({ sort: q.sort, timestampMs: last.timestampMs, id: last.id }) } : {}) });
};
