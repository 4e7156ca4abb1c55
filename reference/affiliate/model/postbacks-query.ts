import type { AffiliateData } from './data.js';
import type { ListPage } from './leads-query.js';
import { done, invalid, type Outcome } from './outcome.js';
import { pageOf, readPostbackPaging } from './paging.js';
import { QueryReader, type QueryLike } from './query-reader.js';

/**
 * E7: the postbacks that pass the filters, by ID, one page: `page` from 1 (default 1),
 * `itemsPerPage` one of 5, 10, 15, 20, 25, 100, 250, 500, 750, 1000 (default 25). Filters
 * compare whole values: `offerID` is the postback's `projectID`, `postbackID` its `ID`.
 */
export function queryPostbacks(data: AffiliateData, q: QueryLike): Outcome<ListPage> {
  const r = new QueryReader(q);
  const paging = readPostbackPaging(r);
  const whitelabelID = r.int('whitelabelID');
  const offerID = r.int('offerID');
  const type = r.int('type');
  const title = r.text('title');
  const status = r.int('status');
  const affiliateHash = r.text('affiliateHash');
  const url = r.text('url');
  const postbackID = r.int('postbackID');
  if (r.problems.length) return invalid(...r.problems);
  const matches = data.postbacks.filter(
    (p) =>
      (whitelabelID === undefined || p.whitelabelID === whitelabelID) &&
      (offerID === undefined || p.projectID === offerID) &&
      (type === undefined || p.type === type) &&
      (title === undefined || p.title === title) &&
      (status === undefined || p.status === status) &&
      (affiliateHash === undefined || p.affiliateHash === affiliateHash) &&
      (url === undefined || p.url === url) &&
      (postbackID === undefined || p.ID === postbackID),
  );
  return done({ items: pageOf(matches, paging).map((p) => ({ ...p })), total: matches.length });
}
