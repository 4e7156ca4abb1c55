/**
 * Which of a list's records can lie in a window of instants: the leads are held in signup
 * order and the conversions in deposit order, so the records of a window are one run of the
 * list, found by two binary searches instead of a test of every record. A list found out of
 * order (a registration dated before the last record, a list built by hand) is searched whole.
 */
export interface IndexRange {
  /** The first index that may be in the window. */
  from: number;
  /** One past the last. */
  to: number;
}

/** How far each list was seen in order: its length then, and whether it was. */
const checked = new WeakMap<readonly object[], { length: number; sorted: boolean }>();

/** Whether `items` is in ascending order of `timeOf`, checking only what was added since the last call. */
function inOrder<T extends object>(items: readonly T[], timeOf: (item: T) => number): boolean {
  const seen = checked.get(items);
  if (seen && seen.length === items.length) return seen.sorted;
  let sorted = seen && seen.length < items.length ? seen.sorted : true;
  for (let i = Math.max(1, seen && seen.length < items.length ? seen.length : 1); sorted && i < items.length; i++) {
    if (timeOf(items[i - 1] as T) > timeOf(items[i] as T)) sorted = false;
  }
  checked.set(items, { length: items.length, sorted });
  return sorted;
}

/** The first index whose time is at least `ms`, or after it when `after` (the length when none is). */
function firstFrom<T>(items: readonly T[], timeOf: (item: T) => number, ms: number, after: boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = timeOf(items[mid] as T);
    if (t < ms || (after && t === ms)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The indexes of `items` whose time may lie in [fromMs, toMs]: exactly those when the list is in order, else all. */
export function windowRange<T extends object>(items: readonly T[], timeOf: (item: T) => number, fromMs: number, toMs: number): IndexRange {
  if (!inOrder(items, timeOf)) return { from: 0, to: items.length };
  return { from: firstFrom(items, timeOf, fromMs, false), to: firstFrom(items, timeOf, toMs, true) };
}
