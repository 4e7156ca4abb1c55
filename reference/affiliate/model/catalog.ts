/**
 * The fixed reference data the seeded records point at: countries (with numeric IDs and the
 * country groups `countryGroupIds[]` filters by), verticals, whitelabels (the `campaignId`
 * of E3) and advertisers (the brokers of E6).
 */
export interface Country {
  id: number;
  code: string;
  name: string;
  /** Country group IDs (E4 `countryGroupIds[]`). */
  groups: readonly number[];
}

export interface Vertical {
  ID: string;
  name: string;
}

export interface Whitelabel {
  id: number;
  name: string;
}

export interface Advertiser {
  id: number;
  name: string;
  /** A path, as the registration answer's `advertiser.logo` is. */
  logo: string;
  /** Broker group (E6 `brokerGroups[]`). */
  group: number;
}

/** Country groups: 1 Europe, 2 Latin America, 3 Asia-Pacific, 4 Tier 1. */
export const COUNTRY_GROUPS: Readonly<Record<number, string>> = { 1: 'Europe', 2: 'Latin America', 3: 'Asia-Pacific', 4: 'Tier 1' };

export const COUNTRIES: readonly Country[] = [
  { id: 276, code: 'DE', name: 'Germany', groups: [1, 4] },
  { id: 826, code: 'GB', name: 'United Kingdom', groups: [1, 4] },
  { id: 250, code: 'FR', name: 'France', groups: [1, 4] },
  { id: 724, code: 'ES', name: 'Spain', groups: [1] },
  { id: 380, code: 'IT', name: 'Italy', groups: [1] },
  { id: 528, code: 'NL', name: 'Netherlands', groups: [1, 4] },
  { id: 752, code: 'SE', name: 'Sweden', groups: [1, 4] },
  { id: 76, code: 'BR', name: 'Brazil', groups: [2] },
  { id: 484, code: 'MX', name: 'Mexico', groups: [2] },
  { id: 124, code: 'CA', name: 'Canada', groups: [4] },
  { id: 36, code: 'AU', name: 'Australia', groups: [3, 4] },
  { id: 392, code: 'JP', name: 'Japan', groups: [3] },
  { id: 710, code: 'ZA', name: 'South Africa', groups: [] },
];

export const VERTICALS: readonly Vertical[] = [
  { ID: '1', name: 'Forex' },
  { ID: '2', name: 'Crypto' },
  { ID: '3', name: 'Stocks' },
  { ID: '4', name: 'Commodities' },
  { ID: '5', name: 'Indices' },
];

export const WHITELABELS: readonly Whitelabel[] = [
  { id: 11, name: 'Northwind Markets' },
  { id: 12, name: 'Bluefin Capital' },
  { id: 13, name: 'Harbor Trade' },
  { id: 14, name: 'Summit FX' },
  { id: 15, name: 'Lumen Invest' },
];

export const ADVERTISERS: readonly Advertiser[] = [
  { id: 201, name: 'Orion Brokers', logo: '/images/advertisers/orion-brokers.png', group: 1 },
  { id: 202, name: 'Castor Trading', logo: '/images/advertisers/castor-trading.png', group: 1 },
  { id: 203, name: 'Vega Finance', logo: '/images/advertisers/vega-finance.png', group: 2 },
  { id: 204, name: 'Altair Securities', logo: '/images/advertisers/altair-securities.png', group: 2 },
  { id: 205, name: 'Rigel Partners', logo: '/images/advertisers/rigel-partners.png', group: 3 },
  { id: 206, name: 'Deneb Exchange', logo: '/images/advertisers/deneb-exchange.png', group: 3 },
];

/** The sub-affiliates leads come from (E6 `affiliateID`, `affiliateIDs[]`). */
export const AFFILIATE_IDS: readonly number[] = [101, 102, 103];

export const PLATFORMS: readonly string[] = ['Windows', 'macOS', 'Linux', 'Android', 'iOS'];
export const BROWSERS: readonly string[] = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Opera'];
/** Raw sale statuses the seed uses; the spec does not show the allowed values (E resources). */
export const SALE_STATUSES: readonly string[] = ['New', 'No Answer', 'Call Back', 'Interested', 'Not Interested', 'Deposited'];

/**
 * What `list.find` by `key` finds (the first entry with it), looked up in a map made once: the
 * list queries look up every record's country, offer and advertiser, on every page they answer.
 */
export function firstByKey<T, K>(list: readonly T[], key: (t: T) => K): ReadonlyMap<K, T> {
  const map = new Map<K, T>();
  for (const t of list) if (!map.has(key(t))) map.set(key(t), t);
  return map;
}

const COUNTRY_BY_CODE = firstByKey(COUNTRIES, (c) => c.code);
const ADVERTISER_BY_ID = firstByKey(ADVERTISERS, (a) => a.id);
const WHITELABEL_BY_ID = firstByKey(WHITELABELS, (w) => w.id);

export const countryByCode = (code: string): Country | undefined => COUNTRY_BY_CODE.get(code);
export const advertiserById = (id: number): Advertiser | undefined => ADVERTISER_BY_ID.get(id);
export const whitelabelById = (id: number): Whitelabel | undefined => WHITELABEL_BY_ID.get(id);
