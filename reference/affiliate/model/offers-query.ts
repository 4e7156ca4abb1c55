import type { AffiliateData } from './data.js';
import { done, invalid, type Outcome } from './outcome.js';
import { pageOf, readPaging } from './paging.js';
import { QueryReader, type QueryLike } from './query-reader.js';
import { offerItem } from './records.js';
import type { Offer } from './types.js';

/** One page of offers (E3 `data`). */
export interface OffersPage {
  items: Array<Record<string, unknown>>;
  page: number;
  totalItems: number;
}

/** The offer filters of E3. */
export interface OfferFilters {
  campaignId?: number;
  campaignIds?: number[];
  name?: string;
  isExternal?: boolean;
}

/**
 * Whether an offer passes the filters; all given filters must hold. `search[name]` matches a
 * part of the name, ignoring letter case (the spec says only "filter by name").
 */
export function offerMatches(o: Offer, f: OfferFilters): boolean {
  if (f.campaignId !== undefined && o.campaignId !== f.campaignId) return false;
  if (f.campaignIds && !f.campaignIds.includes(o.campaignId)) return false;
  if (f.name !== undefined && !o.name.toLowerCase().includes(f.name.toLowerCase())) return false;
  if (f.isExternal !== undefined && o.isExternal !== f.isExternal) return false;
  return true;
}

/** E3: offers by ID, filtered, one page (`itemPerPage`, at most 1000). `totalItems` counts every match. */
export function queryOffers(data: AffiliateData, q: QueryLike): Outcome<OffersPage> {
  const r = new QueryReader(q);
  const campaignId = r.int('search[campaignId]');
  const campaignIds = r.intList('search[campaignIds]');
  const name = r.text('search[name]');
  const isExternal = r.flag('search[isExternal]');
  const paging = readPaging(r, 'itemPerPage');
  if (r.problems.length) return invalid(...r.problems);
  const f: OfferFilters = {
    ...(campaignId !== undefined ? { campaignId } : {}),
    ...(campaignIds ? { campaignIds } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(isExternal !== undefined ? { isExternal } : {}),
  };
  const matches = data.offers.filter((o) => offerMatches(o, f));
  return done({ items: pageOf(matches, paging).map(offerItem), page: paging.page, totalItems: matches.length });
}
