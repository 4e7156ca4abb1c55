import type { PlatformEvent } from './platform-types.js';

/** The timeline holds at most 300 events (H, Events 2 and Limits). */
export const TIMELINE_MAX = 300;
/** ... and only events created within the past 30 days. */
export const TIMELINE_AGE_MS = 30 * 86_400_000;
/** `per_page` bounds (H, Limits): maximum 100; default 15 for /events, 30 elsewhere. */
export const PER_PAGE_MAX = 100;
export const PER_PAGE_DEFAULT = 30;
export const PUBLIC_EVENTS_PER_PAGE_DEFAULT = 15;
/** Seconds between polls the platform asks for (`X-Poll-Interval`). */
export const POLL_INTERVAL_SECONDS = 60;

/** Newest first; the id breaks ties. */
export function newestEventFirst(a: { createdAtMs: number; id: number }, b: { createdAtMs: number; id: number }): number {
  return b.createdAtMs - a.createdAtMs || b.id - a.id;
}

/**
 * A stream as its timeline shows it at `now`: the events of the past 30 days, newest first,
 * at most 300, "even when fewer than 300 exist".
 */
export function timeline(events: readonly PlatformEvent[], now: number): PlatformEvent[] {
  return events.filter((e) => e.createdAtMs >= now - TIMELINE_AGE_MS && e.createdAtMs <= now).sort(newestEventFirst).slice(0, TIMELINE_MAX);
}

/**
 * The version of a stream: the highest event id it holds (new events get ever higher ids),
 * so it changes exactly when the stream gains an event. The platform's ETag derives from it.
 */
export function streamVersion(events: Iterable<{ id: number }>): number {
  let max = 0;
  for (const e of events) if (e.id > max) max = e.id;
  return max;
}

export interface Paging {
  page: number;
  perPage: number;
}

/**
 * `page` and `per_page` of a list request: `per_page` defaults to `defaultPerPage` and is
 * served as at most `maxPerPage`; `page` defaults to 1. Values that are not positive integers
 * count as absent (the repository issue events endpoint refuses them instead; see
 * {@link strictPaging}).
 */
export function paging(get: (name: string) => string | null, defaultPerPage: number, maxPerPage = PER_PAGE_MAX): Paging {
  const positive = (v: string | null): number | undefined => (v !== null && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined);
  return { page: positive(get('page')) ?? 1, perPage: Math.min(positive(get('per_page')) ?? defaultPerPage, maxPerPage) };
}

/** The problems with `page` and `per_page` when either is given but not a positive integer. */
export function strictPaging(get: (name: string) => string | null): string[] {
  return ['page', 'per_page'].flatMap((name) => {
    const v = get(name);
    return v !== null && !(/^\d+$/.test(v) && Number(v) > 0) ? [`${name} must be a positive integer`] : [];
  });
}

/** The items of one page (pages count from 1). */
export function pageOf<T>(items: readonly T[], p: Paging): T[] {
  return items.slice((p.page - 1) * p.perPage, p.page * p.perPage);
}
