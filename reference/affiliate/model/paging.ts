import type { QueryReader } from './query-reader.js';

/** Items per page (Limits): at most 1000 for offers, leads, conversions and income. */
export const MAX_ITEMS_PER_PAGE = 1000;
/**
 * Items per page when the request names none, for offers, leads and conversions. The spec
 * does not show it; the reference's choice.
 */
export const DEFAULT_ITEMS_PER_PAGE = 100;
/** Postback page sizes (E7 and Limits): exactly these, default 25. */
export const POSTBACK_PAGE_SIZES: readonly number[] = [5, 10, 15, 20, 25, 100, 250, 500, 750, 1000];
export const POSTBACK_DEFAULT_PAGE_SIZE = 25;

/** One page of a list: pages count from 1. */
export interface PageRequest {
  page: number;
  size: number;
}

/**
 * `page` and the page size of E3-E6, the size under the spec's own name per endpoint
 * (`itemPerPage` for offers and conversions, `itemsPerPage` for leads and income). A size
 * above 1000, or anything not a positive integer, is a problem.
 */
export function readPaging(r: QueryReader, sizeName: 'itemsPerPage' | 'itemPerPage'): PageRequest {
  const page = r.int('page', 1) ?? 1;
  const size = r.int(sizeName, 1, MAX_ITEMS_PER_PAGE) ?? DEFAULT_ITEMS_PER_PAGE;
  return { page, size };
}

/** `page` (from 1, default 1) and `itemsPerPage` (one of {@link POSTBACK_PAGE_SIZES}, default 25) of E7. */
export function readPostbackPaging(r: QueryReader): PageRequest {
  const page = r.int('page', 1) ?? 1;
  const given = r.int('itemsPerPage', 1);
  if (given !== undefined && !POSTBACK_PAGE_SIZES.includes(given)) {
    r.problems.push(`itemsPerPage must be one of ${POSTBACK_PAGE_SIZES.join(', ')}; got ${given}`);
  }
  return { page, size: given !== undefined && POSTBACK_PAGE_SIZES.includes(given) ? given : POSTBACK_DEFAULT_PAGE_SIZE };
}

/** The items of one page (empty past the last). */
export function pageOf<T>(items: readonly T[], p: PageRequest): T[] {
  return items.slice((p.page - 1) * p.size, p.page * p.size);
}
