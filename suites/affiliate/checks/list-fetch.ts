import { sharedObservation, stableJson } from '../../../src/engine/checks/judged.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { at, success } from './support.js';

/** How one list operation of the table answers and pages (spec 001, E3-E5, E7 and Limits). */
export interface ListShape {
  operation: 'offers' | 'leads' | 'conversions' | 'postbacks';
  /** Where the records are in the answer. */
  items: string;
  /** Where the total number of records is (an integer, or a string for conversions). */
  total: string;
  /** The page size parameter, in the spec's own spelling for this endpoint. */
  limit: 'itemPerPage' | 'itemsPerPage';
  /** The date field a window bounds (lists with fromDate/toDate). */
  date?: 'signupDate' | 'depositDate';
}

export const LISTS: Readonly<Record<ListShape['operation'], ListShape>> = {
  offers: { operation: 'offers', items: 'data.items', total: 'data.totalItems', limit: 'itemPerPage' },
  leads: { operation: 'leads', items: 'items', total: 'total.items', limit: 'itemsPerPage', date: 'signupDate' },
  conversions: { operation: 'conversions', items: 'items', total: 'total.items', limit: 'itemPerPage', date: 'depositDate' },
  postbacks: { operation: 'postbacks', items: 'items', total: 'total.items', limit: 'itemsPerPage' },
};

/** The largest page any list honours (Limits). */
export const MAX_PAGE = 1000;

/**
 * The page size walks read with: well below the maximum (and one of the postback sizes), so a
 * platform that mishandles the maximum itself fails the limit rules only, not every rule that
 * reads a whole list.
 */
export const WALK_PAGE = 500;

/** Most pages a walk follows before it calls the paging endless. */
const MAX_PAGES = 500;

/** One page: its records and total, or why it is not a page. */
export type Page = { ok: true; res: CheckResponse; items: unknown[]; total: number | undefined } | { ok: false; res: CheckResponse; why: string };

/** Reads one page of a list. */
export async function page(ctx: CheckContext, list: ListShape, query: Record<string, unknown>): Promise<Page> {
  const res = await ctx.request({ operation: list.operation, query });
  const items = at(res.body, list.items);
  if (!success(res) || !Array.isArray(items)) return { ok: false, res, why: `${list.operation} ${JSON.stringify(query)} answered ${res.status} without ${list.items} (an array)` };
  const raw = at(res.body, list.total);
  const total = typeof raw === 'number' || typeof raw === 'bigint' || (typeof raw === 'string' && /^\d+$/.test(raw)) ? Number(raw) : undefined;
  return { ok: true, res, items, total };
}

/** Every record of a walk, the answers it read, or why it stopped. */
export type Walk = { ok: true; items: unknown[]; pages: CheckResponse[]; total: number | undefined } | { ok: false; res: CheckResponse; why: string };

/**
 * Walks a list page by page from page 1 with `size` records a page, until a page holds fewer
 * than `size` (or none): the records of every page in order, and the total the first page claims.
 */
export async function walk(ctx: CheckContext, list: ListShape, query: Record<string, unknown>, size = WALK_PAGE): Promise<Walk> {
  const items: unknown[] = [];
  const pages: CheckResponse[] = [];
  let total: number | undefined;
  for (let n = 1; n <= MAX_PAGES; n++) {
    const got = await page(ctx, list, { ...query, page: n, [list.limit]: size });
    if (!got.ok) return got;
    pages.push(got.res);
    total ??= got.total;
    items.push(...got.items);
    // the end is a short page, not the total the answer claims: a wrong total must not cut the walk
    if (got.items.length < size) return { ok: true, items, pages, total };
  }
  const last = pages[pages.length - 1] as CheckResponse;
  return { ok: false, res: last, why: `${list.operation}: a walk of ${size} records a page did not end after ${MAX_PAGES} pages` };
}

/**
 * The walk of {@link walk}, shared by every case of the suite run that reads the same list with
 * the same query and page size: the first case to ask walks, the others wait for that walk, see
 * its exchanges among their own and judge its records themselves (the engine's sharedObservation;
 * a walk whose case was stopped, or that met a failing page, is not handed on to later cases). For the lists a rule is judged against (the
 * platform's own unfiltered lists: over the target's window, the window cut from it, or the whole
 * offer and postback lists), which many cases read alike (every case of a window list reads two of
 * them). A walk a rule is judged by (a filter, a generated window or page size) stays
 * the case's own. A shared walk is one the case's own could have been: the lists do not change
 * while the suite runs, but for the leads registered meanwhile, which join the target's window
 * and which the rules are written to judge at any point of the run (window-lists.ts).
 */
export function sharedWalk(ctx: CheckContext, list: ListShape, query: Record<string, unknown>, size = WALK_PAGE): Promise<Walk> {
  const key = `affiliate list walk\u0000${stableJson({ operation: list.operation, query, size })}`;
  // a walk that met a failing page is the cases' already waiting for it, not the later ones': they walk again
  return sharedObservation(ctx, key, (c) => walk(c, list, query, size), (w) => w.ok);
}
