import type { Vertical } from './catalog.js';

/** One commission of an offer (E resources, "Offer item"). */
export interface Commission {
  commissionEvent: string;
  countryName: string;
  /** Spelled as the spec spells it. A decimal amount as text. */
  commisionAmount: string;
}

/** An advertiser offer: the fields of E3's items plus what the filters and the seed need. */
export interface Offer {
  id: number;
  name: string;
  hash: string;
  catalogLogoPath: string;
  website: string;
  commissions: Commission[];
  verticals: Vertical[];
  /** The whitelabel (E3 `search[campaignId]`: "filter by whitelabel"). */
  campaignId: number;
  /** E3 `search[isExternal]`. */
  isExternal: boolean;
  /** The advertiser (broker) behind the offer. */
  advertiserId: number;
}

/** Where a lead's autologin sends the browser, and how (E2 `details`). */
export interface AutologinShape {
  method: 'GET' | 'POST';
  parameters: 'array' | 'object';
  fragment: boolean;
}

/** A lead as the platform keeps it. */
export interface Lead {
  /** `leadRequest.ID` of its registration and `leadRequestIDEncoded` of its records: one value, case-sensitive. */
  id: string;
  offerId: number;
  countryCode: string;
  signupMs: number;
  isSmartClick: boolean;
  hasFTD: boolean;
  custom: [string | null, string | null, string | null, string | null, string | null];
  customerID: string;
  saleStatus: string | null;
  /** The operating system (the `platform` field; E4's `os` filter matches it). */
  platform: string;
  browser: string;
  /** A test lead (E4 `skip`: 0 real leads, 1 test leads). */
  isTest: boolean;
  /** The sub-affiliate it came from (E6 `affiliateID`). */
  affiliateId: number;
  /** What the lead cost (E6 `cost`). */
  cost: number;
  /** Its autologin target's shape. */
  shape: AutologinShape;
  /** How it arrived: seeded, or registered through E1 (then with the registration's fields). */
  registration?: Readonly<Record<string, string>>;
}

/** A first deposit of a lead that has one (E5). */
export interface Conversion {
  leadId: string;
  depositMs: number;
  referer: string | null;
  /** Counts as qualified (E6 `qualified`). */
  qualified: boolean;
  /** The commission it earned (E6 `income`). */
  commission: number;
}

/** A postback configuration (E resources, "Postback record"), exactly its fields. */
export interface Postback {
  ID: number;
  projectID: number;
  whitelabelID: number;
  title: string;
  type: number;
  url: string;
  check_condition: string;
  time_registered: string;
  status: number;
  comment: string;
  amount: number;
  event: number;
  projectTitle: string;
  hash: string;
  whitelabelName: string;
  affiliateEmail: string;
  affiliateName: string;
  affiliateHash: string;
}

/** Postback type `Signup` (E7: the one value the spec shows). */
export const POSTBACK_TYPE_SIGNUP = 1;
