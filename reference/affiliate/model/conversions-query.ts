import type { AffiliateData } from './data.js';
import { HOUR_MS } from './dates.js';
import { customsMatch, readCustoms, type ListPage } from './leads-query.js';
import { done, invalid, type Outcome } from './outcome.js';
import { pageOf, readPaging } from './paging.js';
import { QueryReader, type QueryLike } from './query-reader.js';
import { conversionRecord } from './records.js';
import { inWindow, readWindow, windowKey } from './time-window.js';
import { cachedMatches } from './match-cache.js';
import type { Conversion } from './types.js';
import { windowRange } from './window-range.js';

const depositOf = (c: Conversion): number => c.depositMs;

/**
 * E5: the first deposits made in the window (`depositDate`, with `fromTime`/`toTime` and
 * `selectedDays[]` applied to it) whose lead passes the filters, oldest first, one page
 * (`itemPerPage`, at most 1000). `campaignIDs[]` are offer IDs ("filter by offers");
 * `lateConversionHour` N keeps deposits made at least N hours after signup (the spec only
 * names it: the reference's reading).
 */
export function queryConversions(data: AffiliateData, q: QueryLike): Outcome<ListPage> {
  const r = new QueryReader(q);
  const window = readWindow(r, true);
  const campaignIDs = r.intList('campaignIDs');
  const custom = readCustoms(r);
  const os = r.text('os');
  const customerID = r.int('customerID');
  const lateHour = r.int('lateConversionHour', 0);
  const paging = readPaging(r, 'itemPerPage');
  if (r.problems.length || !window) return invalid(...r.problems);
  const key = `conversions ${windowKey(window)} ${JSON.stringify({ campaignIDs, custom, os, customerID, lateHour })}`;
  const matches = cachedMatches(data, key, () => {
    const { from, to } = windowRange(data.conversions, depositOf, window.fromMs, window.toMs);
    return data.conversions.slice(from, to).filter((c) => {
      if (!inWindow(c.depositMs, window)) return false;
      const lead = data.leadById(c.leadId);
      if (!lead) return false;
      if (campaignIDs && !campaignIDs.includes(lead.offerId)) return false;
      if (!customsMatch(lead, custom)) return false;
      if (os !== undefined && lead.platform.toLowerCase() !== os.toLowerCase()) return false;
      if (customerID !== undefined && lead.customerID !== String(customerID)) return false;
      if (lateHour !== undefined && c.depositMs - lead.signupMs < lateHour * HOUR_MS) return false;
      return true;
    });
  });
  return done({ items: pageOf(matches, paging).map((c) => conversionRecord(c, data)), total: matches.length });
}
