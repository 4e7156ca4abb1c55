import { countryByCode } from './catalog.js';
import { formatDateTime } from './dates.js';
import type { AffiliateData } from './data.js';
import type { Conversion, Lead, Offer } from './types.js';

/** An offer item of E3: exactly the fields of the spec's table. */
export function offerItem(o: Offer): Record<string, unknown> {
  return {
    id: o.id,
    name: o.name,
    hash: o.hash,
    catalogLogoPath: o.catalogLogoPath,
    website: o.website,
    commissions: o.commissions.map((c) => ({ ...c })),
    verticals: o.verticals.map((v) => ({ ...v })),
  };
}

const customs = (lead: Lead): Record<string, string | null> => ({
  custom1: lead.custom[0],
  custom2: lead.custom[1],
  custom3: lead.custom[2],
  custom4: lead.custom[3],
  custom5: lead.custom[4],
});

/**
 * A lead record of E4: `isSmartClick` the text "0" or "1", `hasFTD` the integer 0 or 1, the
 * campaign being the lead's offer (its name and hash, as in E3).
 */
export function leadRecord(lead: Lead, data: AffiliateData): Record<string, unknown> {
  let record = leadRecords.get(lead);
  if (record === undefined) {
    record = kept(writeLeadRecord(lead, data));
    leadRecords.set(lead, record);
  }
  return record;
}

/**
 * The records written so far, by what they were written from. A lead or conversion never
 * changes once the platform holds it (its offer and country neither), so its record is written
 * once and handed out again: every list answer writes hundreds of them, and the suite reads the
 * same windows in many cases. Kept records are frozen, so a variant that changes one must copy it.
 */
const leadRecords = new WeakMap<Lead, Readonly<Record<string, unknown>>>();
const conversionRecords = new WeakMap<Conversion, Readonly<Record<string, unknown>>>();

/** A record frozen, with its JSON text written once, in UTF-8 (see {@link recordJson}). */
function kept(record: Record<string, unknown>): Readonly<Record<string, unknown>> {
  Object.freeze(record);
  texts.set(record, Buffer.from(JSON.stringify(record), 'utf8'));
  return record;
}

/** The JSON text of each kept record. */
const texts = new WeakMap<object, Buffer>();

/** The JSON text (UTF-8) of a record this module kept (a frozen lead or conversion record), else undefined. */
export function recordJson(value: object): Buffer | undefined {
  return texts.get(value);
}

function writeLeadRecord(lead: Lead, data: AffiliateData): Record<string, unknown> {
  const offer = data.offerById(lead.offerId);
  return {
    campaignName: offer?.name ?? '',
    countryName: countryByCode(lead.countryCode)?.name ?? '',
    // the custom fields written out, not spread from customs(): a page holds up to 1000 records
    custom1: lead.custom[0],
    custom2: lead.custom[1],
    custom3: lead.custom[2],
    custom4: lead.custom[3],
    custom5: lead.custom[4],
    platform: lead.platform,
    browser: lead.browser,
    signupDate: formatDateTime(lead.signupMs),
    isSmartClick: lead.isSmartClick ? '1' : '0',
    customerID: lead.customerID,
    countryCode: lead.countryCode,
    saleStatus: lead.saleStatus,
    campaignHash: offer?.hash ?? '',
    leadRequestIDEncoded: lead.id,
    hasFTD: lead.hasFTD ? 1 : 0,
  };
}

/** A conversion record of E5: its lead's fields, the deposit date, and `leadRequestIDEncoded` equal to its lead's. */
export function conversionRecord(c: Conversion, data: AffiliateData): Record<string, unknown> {
  const known = conversionRecords.get(c);
  if (known !== undefined) return known;
  const record = writeConversionRecord(c, data);
  // a conversion whose lead is not (yet) held is written again each time
  if (data.leadById(c.leadId) === undefined) return record;
  const frozen = kept(record);
  conversionRecords.set(c, frozen);
  return frozen;
}

function writeConversionRecord(c: Conversion, data: AffiliateData): Record<string, unknown> {
  const lead = data.leadById(c.leadId);
  const offer = lead ? data.offerById(lead.offerId) : undefined;
  return {
    depositDate: formatDateTime(c.depositMs),
    customerID: lead?.customerID ?? '',
    ...(lead ? customs(lead) : { custom1: null, custom2: null, custom3: null, custom4: null, custom5: null }),
    platform: lead?.platform ?? '',
    browser: lead?.browser ?? '',
    campaignName: offer?.name ?? '',
    countryName: countryByCode(lead?.countryCode ?? '')?.name ?? '',
    referer: c.referer,
    isSmartClick: lead?.isSmartClick ? '1' : '0',
    countryCode: lead?.countryCode ?? '',
    campaignHash: offer?.hash ?? '',
    leadRequestIDEncoded: c.leadId,
  };
}
