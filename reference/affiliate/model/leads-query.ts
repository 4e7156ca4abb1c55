import { countryByCode } from './catalog.js';
import type { AffiliateData } from './data.js';
import { done, invalid, type Outcome } from './outcome.js';
import { pageOf, readPaging } from './paging.js';
import { QueryReader, type QueryLike } from './query-reader.js';
import { leadRecord } from './records.js';
import { inWindow, readWindow, windowKey, type TimeWindow } from './time-window.js';
import { cachedMatches } from './match-cache.js';
import type { Lead } from './types.js';
import { windowRange } from './window-range.js';

const signupOf = (l: Lead): number => l.signupMs;

/** One page of a list with its total (E4, E5, E7). */
export interface ListPage {
  items: Array<Record<string, unknown>>;
  /** Every match, across all pages. */
  total: number;
}

/** The lead filters of E4 besides the window. Text filters compare whole values. */
export interface LeadFilters {
  offerIDs?: number[];
  skip?: boolean;
  custom?: Array<string | undefined>;
  os?: string;
  customerID?: number;
  saleStatus?: string;
  countryGroupIds?: number[];
  verticals?: string[];
  hasFTD?: boolean;
}

/** Reads `custom1`..`custom5` (each a whole-value filter). */
export function readCustoms(r: QueryReader): Array<string | undefined> | undefined {
  const custom = [1, 2, 3, 4, 5].map((n) => r.text(`custom${n}`));
  return custom.some((c) => c !== undefined) ? custom : undefined;
}

/** Whether the lead's custom fields equal every given `customN`. */
export function customsMatch(lead: Lead, custom: ReadonlyArray<string | undefined> | undefined): boolean {
  return !custom || custom.every((c, i) => c === undefined || lead.custom[i] === c);
}

/**
 * Whether a lead passes the filters. `skip` 0 keeps real leads and 1 test leads (absent: both);
 * `os` is the lead's `platform`, ignoring letter case; `verticals[]` are vertical IDs of the
 * lead's offer; `countryGroupIds[]` groups of its country.
 */
export function leadMatches(lead: Lead, f: LeadFilters, data: AffiliateData): boolean {
  if (f.offerIDs && !f.offerIDs.includes(lead.offerId)) return false;
  if (f.skip !== undefined && lead.isTest !== f.skip) return false;
  if (!customsMatch(lead, f.custom)) return false;
  if (f.os !== undefined && lead.platform.toLowerCase() !== f.os.toLowerCase()) return false;
  if (f.customerID !== undefined && lead.customerID !== String(f.customerID)) return false;
  if (f.saleStatus !== undefined && lead.saleStatus !== f.saleStatus) return false;
  if (f.hasFTD !== undefined && lead.hasFTD !== f.hasFTD) return false;
  if (f.countryGroupIds) {
    const groups = countryByCode(lead.countryCode)?.groups ?? [];
    if (!f.countryGroupIds.some((g) => groups.includes(g))) return false;
  }
  if (f.verticals) {
    const ids = data.offerById(lead.offerId)?.verticals.map((v) => v.ID) ?? [];
    if (!f.verticals.some((v) => ids.includes(v))) return false;
  }
  return true;
}

/** Reads E4's parameters: the window (required dates) and the filters. */
export function readLeadQuery(r: QueryReader): { window: TimeWindow | undefined; filters: LeadFilters } {
  const window = readWindow(r, true);
  const offerIDs = r.intList('offerIDs');
  const skip = r.flag('skip');
  const custom = readCustoms(r);
  const os = r.text('os');
  const customerID = r.int('customerID');
  const saleStatus = r.text('saleStatus');
  const countryGroupIds = r.intList('countryGroupIds');
  const verticals = r.list('verticals');
  const hasFTD = r.flag('hasFTD');
  return {
    window,
    filters: {
      ...(offerIDs ? { offerIDs } : {}),
      ...(skip !== undefined ? { skip } : {}),
      ...(custom ? { custom } : {}),
      ...(os !== undefined ? { os } : {}),
      ...(customerID !== undefined ? { customerID } : {}),
      ...(saleStatus !== undefined ? { saleStatus } : {}),
      ...(countryGroupIds ? { countryGroupIds } : {}),
      ...(verticals.length ? { verticals } : {}),
      ...(hasFTD !== undefined ? { hasFTD } : {}),
    },
  };
}

/** E4: the leads signed up in the window that pass the filters, oldest first, one page (`itemsPerPage`, at most 1000). */
export function queryLeads(data: AffiliateData, q: QueryLike): Outcome<ListPage> {
  const r = new QueryReader(q);
  const { window, filters } = readLeadQuery(r);
  const paging = readPaging(r, 'itemsPerPage');
  if (r.problems.length || !window) return invalid(...r.problems);
  const matches = cachedMatches(data, `leads ${windowKey(window)} ${JSON.stringify(filters)}`, () => {
    const found: Lead[] = [];
    const { from, to } = windowRange(data.leads, signupOf, window.fromMs, window.toMs);
    for (let i = from; i < to; i++) {
      const l = data.leads[i] as Lead;
      if (inWindow(l.signupMs, window) && leadMatches(l, filters, data)) found.push(l);
    }
    return found;
  });
  return done({ items: pageOf(matches, paging).map((l) => leadRecord(l, data)), total: matches.length });
}
