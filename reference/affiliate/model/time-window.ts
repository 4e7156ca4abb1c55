import { secondOfDay, weekdayOf } from './dates.js';
import type { QueryReader } from './query-reader.js';

/**
 * The time filters of E4 and E5: an inclusive window `fromDate`..`toDate`, optionally only
 * the times of day `fromTime`..`toTime` and only the days `selectedDays[]` (1 Sunday ... 7
 * Saturday).
 */
export interface TimeWindow {
  fromMs: number;
  toMs: number;
  /** Seconds since midnight, inclusive. */
  fromTime?: number;
  toTime?: number;
  days?: ReadonlySet<number>;
}

/**
 * Reads the window. Both dates are required; `fromDate` after `toDate` is a problem. The
 * undefined result goes with problems in the reader.
 */
export function readWindow(r: QueryReader, withTimes: boolean): TimeWindow | undefined {
  const fromMs = r.dateTime('fromDate', true);
  const toMs = r.dateTime('toDate', true);
  const fromTime = withTimes ? r.timeOfDay('fromTime') : undefined;
  const toTime = withTimes ? r.timeOfDay('toTime') : undefined;
  const days = withTimes ? r.intList('selectedDays', 1, 7) : undefined;
  if (fromMs === undefined || toMs === undefined) return undefined;
  if (fromMs > toMs) {
    r.problems.push('fromDate must not be after toDate');
    return undefined;
  }
  return { fromMs, toMs, ...(fromTime !== undefined ? { fromTime } : {}), ...(toTime !== undefined ? { toTime } : {}), ...(days ? { days: new Set(days) } : {}) };
}

/**
 * Whether an instant is in the window. A time-of-day range whose start is after its end
 * spans midnight (`22:00:00`..`02:00:00`); the spec does not say, the reference's reading.
 */
export function inWindow(ms: number, w: TimeWindow): boolean {
  if (ms < w.fromMs || ms > w.toMs) return false;
  if (w.days && !w.days.has(weekdayOf(ms))) return false;
  if (w.fromTime === undefined && w.toTime === undefined) return true;
  const s = secondOfDay(ms);
  if (w.fromTime !== undefined && w.toTime !== undefined) {
    return w.fromTime <= w.toTime ? s >= w.fromTime && s <= w.toTime : s >= w.fromTime || s <= w.toTime;
  }
  if (w.fromTime !== undefined && s < w.fromTime) return false;
  if (w.toTime !== undefined && s > w.toTime) return false;
  return true;
}

/** A text naming the window: equal for windows that keep the same instants. */
export function windowKey(w: TimeWindow): string {
  return `${w.fromMs}|${w.toMs}|${w.fromTime ?? ''}|${w.toTime ?? ''}|${w.days ? [...w.days].sort((a, b) => a - b).join(',') : ''}`;
}
