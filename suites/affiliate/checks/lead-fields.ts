import type { HttpRequestSpec } from '../../../src/engine/model.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { textVar, windowOf } from './support.js';

/** The required fields of the lead request (spec 001, E. Affiliate resources). */
export const REQUIRED_FIELDS = ['email', 'firstName', 'lastName', 'password', 'ip', 'phone'] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];

/** The optional fields of the table. */
export const OPTIONAL_FIELDS = ['areaCode', 'custom1', 'custom2', 'custom3', 'custom4', 'custom5', 'comment', 'offerName', 'offerWebsite', 'locale'] as const;

let counter = 0;

/**
 * A tag no other registration of this process carries, so every lead a case sends has its own
 * e-mail address (a platform may refuse an address it already holds, which is not what a case
 * about another rule judges).
 */
export function uniqueTag(ctx: CheckContext): string {
  counter += 1;
  return `${ctx.seed.toString(36)}-${Date.now().toString(36)}-${counter}`;
}

/** A valid lead request: the six required fields, with an e-mail address of its own. */
export function validLead(ctx: CheckContext): Record<string, string> {
  return {
    email: `lead-${uniqueTag(ctx)}@example.com`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    password: 'Secret-pass-1',
    ip: '203.0.113.7',
    phone: '5551234567',
  };
}

/** The optional rows of the table, by name: `custom` is the one row custom1 .. custom5. */
export const OPTIONAL_ROWS = ['areaCode', 'custom', 'comment', 'offerName', 'offerWebsite', 'locale'] as const;
export type OptionalRow = (typeof OPTIONAL_ROWS)[number];

/** Plausible values of every optional field, by row. */
const OPTIONAL_VALUES: Record<OptionalRow, Record<string, string>> = {
  areaCode: { areaCode: '44' },
  custom: { custom1: 'specgate-c1', custom2: 'specgate-c2', custom3: 'specgate-c3', custom4: 'specgate-c4', custom5: 'specgate-c5' },
  comment: { comment: 'registered by a conformance run' },
  offerName: { offerName: 'Specgate offer' },
  offerWebsite: { offerWebsite: 'offer.example.com' },
  locale: { locale: 'en' },
};

/** The optional fields of one row of the table (every row when none is named), with plausible values. */
export function optionalFields(row?: OptionalRow): Record<string, string> {
  if (row) return { ...OPTIONAL_VALUES[row] };
  return Object.assign({}, ...OPTIONAL_ROWS.map((r) => OPTIONAL_VALUES[r])) as Record<string, string>;
}

/** A request each operation answers with a success when it carries the key (what refusal cases strip the key from). */
export function goodRequest(ctx: CheckContext, operation: string): HttpRequestSpec {
  switch (operation) {
    case 'registerLead':
      return { operation, form: validLead(ctx) };
    case 'autologin':
      return { operation, query: { leadRequestID: textVar(ctx, 'lead_request_id') } };
    case 'leads':
    case 'conversions':
    case 'income':
      return { operation, query: windowOf(ctx) };
    default:
      return { operation };
  }
}
