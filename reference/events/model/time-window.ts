import type { MonitorEvent } from './monitor-event.js';

/**
 * The first index of `items` at which `reached` holds, or `items.length` when it never does.
 * `items` must be ordered so that `reached` is false up to some index and true from there on
 * (a cursor or a time bound over a list sorted by time): a binary search, so a page of a large
 * stream is found without looking at every event.
 */
export function firstIndex<T>(items: readonly T[], reached: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (reached(items[mid] as T)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The events of `oldestFirst` (sorted by time) timed in [fromMs, toMs], oldest first, as a new
 * array. A bound that is not a number leaves the window empty, as comparing with it would.
 */
export function timeWindow(oldestFirst: readonly MonitorEvent[], fromMs: number, toMs: number): MonitorEvent[] {
  const from = firstIndex(oldestFirst, (e) => e.timestampMs >= fromMs);
  const to = firstIndex(oldestFirst, (e) => !(e.timestampMs <= toMs));
  return from < to ? oldestFirst.slice(from, to) : [];
}
