import { countryByCode } from './catalog.js';
import type { Offer } from './types.js';

/**
 * What a first deposit earns: the offer's FTD (else CPA) commission for the lead's country, or
 * the offer's first such commission when none names that country.
 */
export function commissionFor(offer: Offer, countryCode: string): number {
  const deposits = offer.commissions.filter((c) => c.commissionEvent === 'FTD' || c.commissionEvent === 'CPA');
  const countryName = countryByCode(countryCode)?.name;
  const chosen = deposits.find((c) => c.countryName === countryName) ?? deposits[0] ?? offer.commissions[0];
  return chosen ? Number(chosen.commisionAmount) : 0;
}
