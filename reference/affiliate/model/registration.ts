import { isIP } from 'node:net';
import type { Offer } from './types.js';

/** The required fields of a lead request (E resources, "Lead request"), in the table's order. */
export const REQUIRED_FIELDS = ['email', 'firstName', 'lastName', 'password', 'ip', 'phone'] as const;
/** The optional fields of the table; `custom1`..`custom5` stand for five. */
export const OPTIONAL_FIELDS = ['areaCode', 'custom1', 'custom2', 'custom3', 'custom4', 'custom5', 'comment', 'offerName', 'offerWebsite', 'locale'] as const;
/** What the registration sample also sends, outside the table (E resources). */
export const SAMPLE_EXTRA_FIELDS = ['custom', 'currency'] as const;

export type RequiredField = (typeof REQUIRED_FIELDS)[number];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Every problem with a lead request: a required field missing or empty, `email` not an e-mail
 * address, `ip` not an IP address (v4 or v6), `areaCode` not numeric (digits only). Fields the
 * table does not name are accepted and ignored, `custom` and `currency` (the sample's) kept.
 */
export function registrationProblems(fields: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  for (const name of REQUIRED_FIELDS) {
    const v = fields[name];
    if (v === undefined || v.trim() === '') problems.push(`${name} is required`);
  }
  const email = fields['email'];
  if (email !== undefined && email.trim() !== '' && !EMAIL.test(email)) problems.push(`email must be an e-mail address; got ${JSON.stringify(email)}`);
  const ip = fields['ip'];
  if (ip !== undefined && ip.trim() !== '' && isIP(ip) === 0) problems.push(`ip must be an IP address; got ${JSON.stringify(ip)}`);
  const areaCode = fields['areaCode'];
  if (areaCode !== undefined && areaCode !== '' && !/^\d+$/.test(areaCode)) problems.push(`areaCode must be numeric; got ${JSON.stringify(areaCode)}`);
  return problems;
}

/**
 * The offer a registration is for: the one `offerName` names (ignoring letter case), else the
 * one on `offerWebsite`, else the key's default offer (the first). The spec does not say what
 * an unknown name does; the reference falls back to the default rather than refuse an
 * optional field.
 */
export function offerFor(fields: Readonly<Record<string, string>>, offers: readonly Offer[]): Offer | undefined {
  const name = fields['offerName']?.trim().toLowerCase();
  const website = fields['offerWebsite']?.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  return (name ? offers.find((o) => o.name.toLowerCase() === name) : undefined) ?? (website ? offers.find((o) => o.website === website) : undefined) ?? offers[0];
}

/** The registration answer's `details` (E resources, "Registration response"). */
export interface RegistrationDetails {
  leadRequest: { ID: string };
  advertiser: { name: string; logo: string };
  offer: { ID: string; name: string; hash: string };
  postbacks: Array<{ ID: number; type: number; url: string }>;
  redirect: { url: string };
}
