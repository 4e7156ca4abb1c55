import type { FailureInput } from '../../../src/engine/suite-module.js';
import { walk, WALK_PAGE } from './list-fetch.js';
import { cappedRuns, exactFinding, filteredFinding, onceEach, type ListBasis } from './list-findings.js';
import { DAY_NAMES, dayTimesArb, daysArb, windowArb, windowWalkArb, type DateWindow, type DayTimes, type WindowWalk } from './list-inputs.js';
import { at, failure, weekday, type Json } from './support.js';

/**
 * Runs of the window, time-of-day and weekday properties when the run does not say: each run
 * walks one filtered list (one to three pages), so a dozen or so keep the suite quick.
 */
const FILTER_RUNS = 15;
/** Runs of the paging property: a run reads up to five pages, and a window's list once. */
const PAGING_RUNS = 15;

/** The dates of the basis records, ascending. */
function sortedDates(b: ListBasis): string[] {
  return b.all.map(b.dateOf).filter((d): d is string => d !== undefined).sort();
}

/** A window from one record's date to another's, exactly (a quarter and three quarters in). */
function edgeWindows(dates: readonly string[]): DateWindow[] {
  const from = dates[Math.floor(dates.length / 4)];
  const to = dates[Math.floor((dates.length * 3) / 4)];
  return from !== undefined && to !== undefined ? [{ fromDate: from, toDate: to }] : [];
}

/** A time-of-day range from one record's time to another's, exactly (earlier first). */
function edgeTimes(dates: readonly string[]): DayTimes[] {
  const times = dates.map((d) => d.slice(11)).sort();
  const from = times[Math.floor(times.length / 4)];
  const to = times[Math.floor((times.length * 3) / 4)];
  return from !== undefined && to !== undefined ? [{ fromTime: from, toTime: to }] : [];
}

/**
 * E4/E5 fromDate..toDate: a generated window inside the basis window (second precision,
 * zero-length and bound-equal ones included) lists exactly the basis records dated in it,
 * both bounds inclusive. A disagreement shrinks to the shortest window that shows it.
 */
export async function windowProperty(b: ListBasis): Promise<void> {
  const dates = sortedDates(b);
  await b.ctx.property(
    windowArb(b.window, dates),
    onceEach(async (w: DateWindow) => {
      const expected = b.all.filter((r) => {
        const d = b.dateOf(r);
        return d !== undefined && d >= w.fromDate && d <= w.toDate;
      });
      // the generated window replaces the basis one: it lies inside it
      const got = await walk(b.ctx, b.list, { ...w }, WALK_PAGE);
      const what = `${b.list.operation} from ${w.fromDate} to ${w.toDate}`;
      if (!got.ok) return failure(`${what}: ${got.why}`, got.res);
      return exactFinding(what, expected, got.items, got.pages[0]);
    }),
    // first, a window whose two bounds are records' own dates: both ends inclusive is the rule a
    // window that starts or ends a second off breaks, and few generated windows land exactly there
    { runs: cappedRuns(b.ctx, FILTER_RUNS), label: `${b.list.operation} window`, examples: edgeWindows(dates) },
  );
}

/**
 * E4/E5 fromTime/toTime: a generated range of times of day (fromTime <= toTime; the spec does
 * not say what a range across midnight means) keeps exactly the basis records whose time of
 * day is in it, both ends inclusive.
 */
export async function timeOfDayProperty(b: ListBasis): Promise<void> {
  const dates = sortedDates(b);
  await b.ctx.property(
    dayTimesArb(dates),
    onceEach(async (t) => {
      const expected = b.all.filter((r) => {
        const time = b.dateOf(r)?.slice(11);
        return time !== undefined && time >= t.fromTime && time <= t.toTime;
      });
      return filteredFinding(b, `${b.list.operation} with fromTime=${t.fromTime}&toTime=${t.toTime}`, { ...t }, expected);
    }),
    { runs: cappedRuns(b.ctx, FILTER_RUNS), label: `${b.list.operation} time of day`, examples: edgeTimes(dates) },
  );
}

/**
 * E4/E5 selectedDays[]: a generated non-empty set of weekdays (1 Sunday ... 7 Saturday), sent
 * with the name repeated, keeps exactly the basis records dated on one of them.
 */
export async function selectedDaysProperty(b: ListBasis): Promise<void> {
  await b.ctx.property(
    daysArb,
    onceEach(async (days) => {
      const expected = b.all.filter((r) => {
        const d = b.dateOf(r);
        return d !== undefined && days.includes(weekday(d));
      });
      const what = `${b.list.operation} with selectedDays[]=${days.join('&selectedDays[]=')} (${days.map((d) => DAY_NAMES[d]).join(', ')})`;
      return filteredFinding(b, what, { 'selectedDays[]': days }, expected);
    }),
    // first, the two ends of the numbering together (1 Sunday, 7 Saturday)
    { runs: cappedRuns(b.ctx, FILTER_RUNS), label: `${b.list.operation} selectedDays[]`, examples: [[1, 7]] },
  );
}

/**
 * E4/E5 page and page size: a walk of a generated page size (1 to 1000) visits every record of
 * the unfiltered list exactly once, no page holds more than the size, and total.items counts
 * the list. Small sizes walk a window that starts with the basis window and holds a few pages
 * of them (the basis window holds over a thousand records); the expected list is then the
 * target's own list of that window read 500 a page, never one cut from the basis by date, so
 * only paging can make the two differ.
 */
export async function pagingProperty(b: ListBasis): Promise<void> {
  const dates = sortedDates(b);
  const windows = new Map<string, Promise<{ items: unknown[] } | FailureInput>>();
  const listOf = (toDate: string): Promise<{ items: unknown[] } | FailureInput> => {
    let got = windows.get(toDate);
    if (!got) {
      got = walk(b.ctx, b.list, { fromDate: b.window.fromDate, toDate }, WALK_PAGE).then((w) => (w.ok ? { items: w.items } : failure(`${b.list.operation} from ${b.window.fromDate} to ${toDate}: ${w.why}`, w.res)));
      windows.set(toDate, got);
    }
    return got;
  };
  await b.ctx.property(
    windowWalkArb,
    onceEach(async (w: WindowWalk) => {
      const wanted = Math.max(1, w.pages * w.size + w.edge);
      const whole = wanted >= dates.length;
      const toDate = whole ? b.window.toDate : (dates[wanted - 1] as string);
      const expected = whole ? { items: b.all as unknown[] } : await listOf(toDate);
      if (!('items' in expected)) return expected;
      const got = await walk(b.ctx, b.list, { fromDate: b.window.fromDate, toDate }, w.size);
      const what = `a walk of ${b.list.limit}=${w.size} over ${b.list.operation} from ${b.window.fromDate} to ${toDate}`;
      if (!got.ok) return failure(`${what}: ${got.why}`, got.res);
      const over = got.pages.findIndex((res) => pageLength(b, res.body) > w.size);
      if (over >= 0) return failure(`${what}: page ${over + 1} holds more than ${w.size} records`, got.pages[over]);
      const diff = exactFinding(`${what} (${got.pages.length} pages)`, expected.items as Json[], got.items, got.pages[0]);
      if (diff) return diff;
      if (got.total !== expected.items.length) return failure(`${what}: total.items says ${String(got.total)}, but the window holds ${expected.items.length}`, got.pages[0], { expected: expected.items.length, actual: got.total });
      return undefined;
    }),
    { runs: cappedRuns(b.ctx, PAGING_RUNS), label: `${b.list.operation} paging` },
  );
}

/** How many records a page answer holds. */
function pageLength(b: ListBasis, body: unknown): number {
  const items = at(body, b.list.items);
  return Array.isArray(items) ? items.length : 0;
}
