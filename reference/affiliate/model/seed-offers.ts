import { ADVERTISERS, COUNTRIES, VERTICALS, WHITELABELS } from './catalog.js';
import type { PlatformRandom } from './random.js';
import type { Offer } from './types.js';

/** How many offers the seed holds, and the first offer ID. */
export const OFFER_COUNT = 40;
export const FIRST_OFFER_ID = 1001;

const BRANDS = ['Atlas', 'Beacon', 'Cobalt', 'Delta', 'Ember', 'Falcon', 'Granite', 'Helix', 'Iris', 'Juniper'];
const PRODUCTS = ['Trade', 'Invest', 'Markets', 'Pro'];
const EVENTS = ['FTD', 'CPL', 'CPA'];

/**
 * The seeded offers: unique names (`<Brand> <Product>`), unique hashes, one to three
 * commissions, one or two verticals, a whitelabel, an advertiser; about a third external.
 */
export function seedOffers(rng: PlatformRandom): Offer[] {
  const offers: Offer[] = [];
  for (let i = 0; i < OFFER_COUNT; i++) {
    const id = FIRST_OFFER_ID + i;
    const brand = BRANDS[i % BRANDS.length] ?? 'Atlas';
    const product = PRODUCTS[Math.floor(i / BRANDS.length) % PRODUCTS.length] ?? 'Trade';
    const name = `${brand} ${product}`;
    const events = rng.some(EVENTS, rng.int(1, 3));
    offers.push({
      id,
      name,
      hash: rng.hex(32),
      catalogLogoPath: `/images/offers/${id}.png`,
      website: `${brand.toLowerCase()}-${product.toLowerCase()}.example`,
      commissions: events.map((commissionEvent) => ({
        commissionEvent,
        countryName: rng.pick(COUNTRIES).name,
        commisionAmount: `${commissionEvent === 'CPL' ? rng.int(5, 40) : rng.int(150, 900)}.00`,
      })),
      verticals: rng.some(VERTICALS, rng.int(1, 2)).map((v) => ({ ...v })),
      campaignId: rng.pick(WHITELABELS).id,
      isExternal: rng.chance(0.3),
      advertiserId: rng.pick(ADVERTISERS).id,
    });
  }
  // the first offer (where registrations land by default) is internal, on the first whitelabel
  const first = offers[0];
  if (first) Object.assign(first, { isExternal: false, campaignId: WHITELABELS[0]?.id ?? first.campaignId });
  return offers;
}
