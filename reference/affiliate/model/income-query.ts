import { advertiserById, countryByCode } from './catalog.js';
import type { AffiliateData } from './data.js';
import { secondOfDay } from './dates.js';
import { done, invalid, type Outcome } from './outcome.js';
import { readPaging } from './paging.js';
import { QueryReader, type QueryLike } from './query-reader.js';
import { readWindow } from './time-window.js';
import type { Conversion, Lead } from './types.js';
import { windowRange } from './window-range.js';

/** E6's answer. */
export interface IncomeSummary {
  cost: number;
  income: number;
}

/** Broker working hours (E6 `brokerWorkingHours` 1): signups from 09:00:00 to 17:59:59. */
const WORK_FROM = 9 * 3600;
const WORK_TO = 18 * 3600 - 1;

const cents = (n: number): number => Math.round(n * 100) / 100;

/**
 * E6: `cost` is what the leads signed up in the window cost, `income` what the first deposits
 * made in the window earned, both over the leads that pass the filters, to the cent. The spec
 * names the filters only; the reference reads them as: `affiliateID(s)` the sub-affiliate,
 * `campaignID(s)` the offer, `brokerID` the offer's advertiser, `brokerGroups[]` its group,
 * `countryID(s)` the lead's country (numeric), `skip` 0 real / 1 test leads, `qualified` 1
 * only qualified deposits, `brokerWorkingHours` 1 only signups in working hours. `page` and
 * `itemsPerPage` are checked (at most 1000) but a summary has one page.
 */
export function queryIncome(data: AffiliateData, q: QueryLike): Outcome<IncomeSummary> {
  const r = new QueryReader(q);
  const window = readWindow(r, false);
  readPaging(r, 'itemsPerPage');
  const affiliateIDs = merge(r.int('affiliateID'), r.intList('affiliateIDs'));
  const campaignIDs = merge(r.int('campaignID'), r.intList('campaignIDs'));
  const countryIDs = merge(r.int('countryID'), r.intList('countryIDs'));
  const brokerID = r.int('brokerID');
  const brokerGroups = r.intList('brokerGroups');
  const qualified = r.flag('qualified');
  const skip = r.flag('skip');
  const workingHours = r.flag('brokerWorkingHours');
  if (r.problems.length || !window) return invalid(...r.problems);

  const passes = (lead: Lead): boolean => {
    if (affiliateIDs && !affiliateIDs.includes(lead.affiliateId)) return false;
    if (campaignIDs && !campaignIDs.includes(lead.offerId)) return false;
    if (countryIDs && !countryIDs.includes(countryByCode(lead.countryCode)?.id ?? -1)) return false;
    if (brokerID !== undefined || brokerGroups) {
      const offer = data.offerById(lead.offerId);
      if (brokerID !== undefined && offer?.advertiserId !== brokerID) return false;
      const advertiser = offer ? advertiserById(offer.advertiserId) : undefined;
      if (brokerGroups && !brokerGroups.includes(advertiser?.group ?? -1)) return false;
    }
    if (skip !== undefined && lead.isTest !== skip) return false;
    if (workingHours === true) {
      const s = secondOfDay(lead.signupMs);
      if (s < WORK_FROM || s > WORK_TO) return false;
    }
    return true;
  };
  let cost = 0;
  const signups = windowRange(data.leads, (l) => l.signupMs, window.fromMs, window.toMs);
  for (let i = signups.from; i < signups.to; i++) {
    const lead = data.leads[i] as Lead;
    if (lead.signupMs >= window.fromMs && lead.signupMs <= window.toMs && passes(lead)) cost += lead.cost;
  }
  let income = 0;
  const deposits = windowRange(data.conversions, (c) => c.depositMs, window.fromMs, window.toMs);
  for (let i = deposits.from; i < deposits.to; i++) {
    const c = data.conversions[i] as Conversion;
    if (c.depositMs < window.fromMs || c.depositMs > window.toMs || (qualified === true && !c.qualified)) continue;
    const lead = data.leadById(c.leadId);
    if (lead && passes(lead)) income += c.commission;
  }
  return done({ cost: cents(cost), income: cents(income) });
}

/** A single-value filter and its array form together (either may be given). */
function merge(one: number | undefined, many: number[] | undefined): number[] | undefined {
  if (one === undefined && !many) return undefined;
  return [...(one !== undefined ? [one] : []), ...(many ?? [])];
}
