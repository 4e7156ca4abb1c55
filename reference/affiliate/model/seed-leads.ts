import { shapeOf } from './autologin.js';
import { AFFILIATE_IDS, BROWSERS, COUNTRIES, PLATFORMS, SALE_STATUSES } from './catalog.js';
import { commissionFor } from './commission.js';
import { DAY_MS, HOUR_MS } from './dates.js';
import type { LeadIds } from './lead-ids.js';
import type { PlatformRandom } from './random.js';
import type { Conversion, Lead, Offer } from './types.js';

/** How many leads the seed holds, spread over the {@link SEED_DAYS} days before now. */
export const LEAD_COUNT = 1500;
export const SEED_DAYS = 60;
/** The share of leads with a first deposit (about 1,100 conversions: lists page past 1000). */
const FTD_SHARE = 0.74;
/** Index of the lead whose ID the seed repeats in other letter case (the next lead gets it). */
export const CASE_TWIN_INDEX = 6;

const REFERERS = ['https://news.example/markets', 'https://blog.example/invest', 'https://search.example/?q=trading'];
const SUB_IDS = ['sub-a', 'sub-b', 'sub-c', 'sub-d'];

/** A seeded lead without its shape (given once the leads are in signup order). */
function draftLead(rng: PlatformRandom, id: string, offer: Offer, signupMs: number, customer: number): Omit<Lead, 'shape'> {
  const country = rng.pick(COUNTRIES);
  const maybe = (p: number, value: () => string): string | null => (rng.chance(p) ? value() : null);
  return {
    id,
    offerId: offer.id,
    countryCode: country.code,
    signupMs,
    isSmartClick: rng.chance(0.2),
    hasFTD: false,
    custom: [maybe(0.8, () => rng.pick(SUB_IDS)), maybe(0.5, () => `click-${rng.int(1, 40)}`), maybe(0.3, () => rng.pick(['spring', 'summer', 'autumn'])), maybe(0.1, () => `t${rng.int(1, 9)}`), null],
    customerID: String(customer),
    saleStatus: rng.chance(0.15) ? null : rng.pick(SALE_STATUSES.slice(0, -1)),
    platform: rng.pick(PLATFORMS),
    browser: rng.pick(BROWSERS),
    isTest: rng.chance(0.05),
    affiliateId: rng.pick(AFFILIATE_IDS),
    cost: rng.money(0.5, 4),
  };
}

/**
 * The seeded leads (signup order, shapes in turn) and their conversions (deposit order): a lead
 * with `hasFTD` 1 has exactly one conversion, deposited after it signed up and before now.
 * Times are whole seconds, as `YYYY-MM-DD HH:mm:ss` shows them.
 */
export function seedLeads(rng: PlatformRandom, ids: LeadIds, offers: readonly Offer[], now: number): { leads: Lead[]; conversions: Conversion[] } {
  const start = Math.floor(now / 1000) * 1000 - SEED_DAYS * DAY_MS;
  const times: number[] = [];
  for (let i = 0; i < LEAD_COUNT; i++) times.push(start + rng.int(0, SEED_DAYS * 86_400 - 60) * 1000);
  times.sort((a, b) => a - b);
  const drafts = times.map((t, i) => draftLead(rng, ids.next(), rng.pick(offers), t, 4_000_001 + i));
  // one ID again in other letter case: the two leads must stay apart
  const original = drafts[CASE_TWIN_INDEX];
  const twinHolder = drafts[CASE_TWIN_INDEX + 1];
  const twin = original ? ids.twinOf(original.id) : undefined;
  if (twinHolder && twin) twinHolder.id = twin;
  const leads: Lead[] = drafts.map((d, i) => ({ ...d, shape: shapeOf(i) }));

  const conversions: Conversion[] = [];
  for (const lead of leads) {
    const room = now - lead.signupMs;
    if (lead.isTest || room < HOUR_MS || !rng.chance(FTD_SHARE)) continue;
    lead.hasFTD = true;
    if (lead.saleStatus !== null) lead.saleStatus = 'Deposited';
    const offer = offers.find((o) => o.id === lead.offerId);
    const delay = rng.int(300, Math.min(96 * 3600, Math.floor(room / 1000) - 1)) * 1000;
    conversions.push({
      leadId: lead.id,
      depositMs: lead.signupMs + delay,
      referer: rng.chance(0.6) ? rng.pick(REFERERS) : null,
      qualified: rng.chance(0.85),
      commission: offer ? commissionFor(offer, lead.countryCode) : 0,
    });
  }
  conversions.sort((a, b) => a.depositMs - b.depositMs || (a.leadId < b.leadId ? -1 : 1));
  return { leads, conversions };
}
