import type { Conversion, Lead, Offer, Postback } from './types.js';

/** The records the list queries read (the model holds them; see affiliate-model.ts). */
export interface AffiliateData {
  readonly offers: readonly Offer[];
  /** In signup order. */
  readonly leads: readonly Lead[];
  /** In deposit order. */
  readonly conversions: readonly Conversion[];
  readonly postbacks: readonly Postback[];
  offerById(id: number): Offer | undefined;
  /** By exact, case-sensitive ID. */
  leadById(id: string): Lead | undefined;
}
