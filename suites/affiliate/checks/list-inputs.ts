import fc from 'fast-check';

/** A window of the lead and conversion lists, in the spec's date format (E4, E5). */
export interface DateWindow {
  fromDate: string;
  toDate: string;
}

/** A time-of-day range of the lead and conversion lists, `HH:mm:ss` each (E4, E5). */
export interface DayTimes {
  fromTime: string;
  toTime: string;
}

const DAY = 86_400;

/** How many slots a short generated range spans at most (three slots a record: about a dozen records). */
const SHORT_SLOTS = 40;

/**
 * Seconds of a `YYYY-MM-DD HH:mm:ss` date, counted as if it were UTC: the platform's dates carry
 * no zone, and the generated bounds only need their order and one-second steps.
 */
export function secondsOf(date: string): number {
  const [y = 1970, mo = 1, d = 1, h = 0, mi = 0, s = 0] = date.split(/[- :]/).map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s) / 1000;
}

/** The date format of seconds counted as by `secondsOf`. */
export function dateOfSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** `HH:mm:ss` of a number of seconds since midnight. */
export function timeOfSeconds(seconds: number): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
}

/** Seconds since midnight of a `HH:mm:ss` time (or of the time of a date). */
export function secondOfDay(time: string): number {
  const [h = 0, m = 0, s = 0] = time.slice(-8).split(':').map(Number);
  return h * 3600 + m * 60 + s;
}

/**
 * Ranges [a, b] with lo <= a <= b <= hi. Most start and end on a slot: a value records have, a
 * second either side of one, or lo and hi themselves, so bounds that fall exactly on a record
 * (where an inclusive bound read as exclusive shows) come often. The rest are any seconds.
 * Both kinds shrink towards the shortest range, a zero-length one at its earliest start.
 */
function rangeArb(lo: number, hi: number, anchors: readonly number[]): fc.Arbitrary<[number, number]> {
  const slots = [...new Set([lo, hi, ...anchors.flatMap((s) => [s - 1, s, s + 1])])].filter((s) => s >= lo && s <= hi).sort((a, b) => a - b);
  const last = slots.length - 1;
  const slot = (i: number): number => slots[Math.min(last, i)] ?? lo;
  // short ranges (a few records) twice as often as any: each run reads what its range holds
  const later = fc.oneof({ arbitrary: fc.nat(Math.min(last, SHORT_SLOTS)), weight: 2 }, { arbitrary: fc.nat(last), weight: 1 });
  const length = fc.oneof({ arbitrary: fc.nat(Math.ceil(((hi - lo) * SHORT_SLOTS) / Math.max(1, last))), weight: 2 }, { arbitrary: fc.nat(hi - lo), weight: 1 });
  const bySlot = fc.record({ at: fc.nat(last), later }).map(({ at, later: k }): [number, number] => [slot(at), slot(at + k)]);
  const bySecond = fc.record({ at: fc.nat(hi - lo), length }).map(({ at, length: n }): [number, number] => [lo + at, Math.min(hi, lo + at + n)]);
  return fc.oneof({ withCrossShrink: true }, { arbitrary: bySlot, weight: 3 }, { arbitrary: bySecond, weight: 1 });
}

/**
 * Windows inside `bounds` at second precision, zero-length ones and the bounds themselves
 * included; `dates` are the records' dates, which slots cluster around.
 */
export function windowArb(bounds: DateWindow, dates: readonly string[]): fc.Arbitrary<DateWindow> {
  const lo = secondsOf(bounds.fromDate);
  const hi = Math.max(lo, secondsOf(bounds.toDate));
  return rangeArb(lo, hi, dates.map(secondsOf)).map(([a, b]) => ({ fromDate: dateOfSeconds(a), toDate: dateOfSeconds(b) }));
}

/**
 * Time-of-day ranges with fromTime <= toTime, 00:00:00 to 23:59:59; `dates` are the records'
 * dates, whose times slots cluster around. A range whose start is after its end is never
 * generated: the spec does not say what it means.
 */
export function dayTimesArb(dates: readonly string[]): fc.Arbitrary<DayTimes> {
  return rangeArb(0, DAY - 1, dates.map(secondOfDay)).map(([a, b]) => ({ fromTime: timeOfSeconds(a), toTime: timeOfSeconds(b) }));
}

/** Non-empty sets of weekdays in the spec's numbering (1 Sunday ... 7 Saturday), ascending. */
export const daysArb: fc.Arbitrary<number[]> = fc.subarray([1, 2, 3, 4, 5, 6, 7], { minLength: 1 });

/** The spec's weekday names, 1 Sunday ... 7 Saturday, for messages. */
export const DAY_NAMES = ['', 'Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * A walk of a window list: `size` records a page (1 to 1000), over a window that holds about
 * `pages` pages of that size, `edge` records more or fewer (so the last page is short, full,
 * or one over a full page). Shrinks towards one record a page over the fewest records.
 */
export interface WindowWalk {
  size: number;
  pages: number;
  edge: number;
}

/** Most pages a generated walk of a window list aims at, so a page of one record stays cheap. */
export const WALK_PAGES = 4;

export const windowWalkArb: fc.Arbitrary<WindowWalk> = fc.record({
  size: fc.integer({ min: 1, max: 1000 }),
  pages: fc.integer({ min: 1, max: WALK_PAGES }),
  edge: fc.integer({ min: -1, max: 1 }),
});
