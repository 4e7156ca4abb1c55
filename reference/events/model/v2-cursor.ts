import type { MonitorEvent } from './monitor-event.js';

export type V2Sort = 'timestamp' | '-timestamp';

/**
 * Where a cursor walk of GET /api/v2/events stands: the sort key (timestamp, then id) of the
 * last event returned, and the sort it was returned in. The next page holds the events
 * strictly after it in that order, so events posted between pages neither repeat an event nor
 * push one out of the walk (an offset would do both).
 */
export interface CursorKey {
  sort: V2Sort;
  timestampMs: number;
  id: bigint;
}

/** The opaque text of `meta.page.after`: base64url of a small JSON object. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify({ s: key.sort, t: key.timestampMs, i: key.id.toString() }), 'utf8').toString('base64url');
}

/** The key a cursor holds; undefined for text that is not one of ours. */
export function decodeCursor(text: string): CursorKey | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (v === null || typeof v !== 'object') return undefined;
    const { s, t, i } = v as Record<string, unknown>;
    if ((s !== 'timestamp' && s !== '-timestamp') || typeof t !== 'number' || !Number.isSafeInteger(t) || typeof i !== 'string' || !/^\d+$/.test(i)) return undefined;
    return { sort: s, timestampMs: t, id: BigInt(i) };
  } catch {
    return undefined;
  }
}

/** Compares two events (or an event and a cursor key) in the order `sort` asks for. */
export function compareIn(sort: V2Sort, a: Pick<MonitorEvent, 'timestampMs' | 'id'>, b: Pick<MonitorEvent, 'timestampMs' | 'id'>): number {
  const ascending = a.timestampMs - b.timestampMs || (a.id > b.id ? 1 : a.id < b.id ? -1 : 0);
  return sort === 'timestamp' ? ascending : -ascending;
}
