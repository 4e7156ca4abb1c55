import type { Alternate, CaseFirst, Collation, MaxVariable, ResolvedCollation, Strength } from '../types.js';
import { CollationDocumentError } from './errors.js';
import { localeDefaults } from './icu-locales.js';

/**
 * Validation follows the best-known document database (spec part F, "Collation document"), in its
 * order: the locale first (missing: NoSuchKey; not a string: TypeMismatch; `simple` with other
 * fields: FailedToParse; empty, containing NUL or not a locale ICU has a collation for under that
 * exact name: BadValue), then each option (wrong BSON type: TypeMismatch; a value outside the
 * allowed set: FailedToParse), then unknown fields (FailedToParse), then combinations that have
 * no effect (BadValue): `backwards: true` at strength 1, and `caseFirst` other than `off` at
 * strength 1 or 2 without caseLevel, each only when the user wrote it (a locale's own default never
 * makes a document invalid).
 *
 * The database also accepts a `version` field equal to its own ICU version; this reference has no
 * such version and treats `version` as an unknown field.
 */
const KNOWN_FIELDS = new Set([
  'locale', 'strength', 'caseLevel', 'caseFirst', 'numericOrdering',
  'alternate', 'maxVariable', 'normalization', 'backwards',
]);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(doc: unknown): string {
  try {
    return JSON.stringify(doc);
  } catch {
    return String(doc);
  }
}

function optionalBoolean(doc: Record<string, unknown>, field: string): boolean | undefined {
  const v = doc[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') {
    throw new CollationDocumentError('TypeMismatch', `Collation field '${field}' must be a boolean; got ${describe(v)}.`);
  }
  return v;
}

function optionalChoice<T extends string>(doc: Record<string, unknown>, field: string, allowed: readonly T[]): T | undefined {
  const v = doc[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') {
    throw new CollationDocumentError('TypeMismatch', `Collation field '${field}' must be a string; got ${describe(v)}.`);
  }
  const found = allowed.find((a) => a === v);
  if (found === undefined) {
    throw new CollationDocumentError(
      'FailedToParse',
      `Collation field '${field}' must be ${allowed.map((a) => `'${a}'`).join(' or ')}; got '${v}'.`,
    );
  }
  return found;
}

function optionalStrength(doc: Record<string, unknown>): Strength | undefined {
  const v = doc['strength'];
  if (v === undefined) return undefined;
  if (typeof v !== 'number') {
    throw new CollationDocumentError('TypeMismatch', `Collation field 'strength' must be a number; got ${describe(v)}.`);
  }
  if (!Number.isInteger(v)) {
    throw new CollationDocumentError('BadValue', `Collation field 'strength' must have an integral value; got ${v}.`);
  }
  if (v === 1 || v === 2 || v === 3 || v === 4 || v === 5) return v;
  throw new CollationDocumentError('FailedToParse', `Collation field 'strength' must be an integer 1 through 5; got ${v}.`);
}

/** Validates a collation document as a user writes it and fills in every field from the locale's defaults. */
export function parseCollation(doc: unknown): Collation {
  if (!isPlainObject(doc)) {
    throw new CollationDocumentError('TypeMismatch', `A collation must be a document (an object); got ${describe(doc)}.`);
  }
  const locale = doc['locale'];
  if (locale === undefined) {
    throw new CollationDocumentError('NoSuchKey', `A collation document needs a 'locale' field: ${describe(doc)}.`);
  }
  if (typeof locale !== 'string') {
    throw new CollationDocumentError('TypeMismatch', `Collation field 'locale' must be a string; got ${describe(locale)}.`);
  }
  if (locale.includes('\0')) {
    throw new CollationDocumentError('BadValue', `Collation field 'locale' cannot contain a NUL character.`);
  }
  if (locale === 'simple') {
    if (Object.keys(doc).length > 1) {
      throw new CollationDocumentError('FailedToParse', `With locale 'simple' no other collation field may be given: ${describe(doc)}.`);
    }
    return 'simple';
  }
  if (locale === '') {
    throw new CollationDocumentError('BadValue', `Collation field 'locale' cannot be the empty string.`);
  }
  const defaults = localeDefaults(locale);
  if (defaults === undefined) {
    throw new CollationDocumentError(
      'BadValue',
      `Collation field 'locale' is invalid: ICU has no collation named exactly '${locale}' (write it ICU-style, e.g. 'fr_CA', 'de@collation=phonebook').`,
    );
  }

  const caseLevel = optionalBoolean(doc, 'caseLevel') ?? false;
  const caseFirst: CaseFirst = optionalChoice<CaseFirst>(doc, 'caseFirst', ['upper', 'lower', 'off']) ?? defaults.caseFirst;
  const strength: Strength = optionalStrength(doc) ?? 3;
  const numericOrdering = optionalBoolean(doc, 'numericOrdering') ?? false;
  const alternate: Alternate = optionalChoice<Alternate>(doc, 'alternate', ['non-ignorable', 'shifted']) ?? defaults.alternate;
  const maxVariable: MaxVariable = optionalChoice<MaxVariable>(doc, 'maxVariable', ['punct', 'space']) ?? 'punct';
  const normalization = optionalBoolean(doc, 'normalization') ?? defaults.normalization;
  const backwards = optionalBoolean(doc, 'backwards') ?? defaults.backwards;

  for (const field of Object.keys(doc)) {
    if (!KNOWN_FIELDS.has(field)) {
      throw new CollationDocumentError('FailedToParse', `Collation document contains unknown field '${field}': ${describe(doc)}.`);
    }
  }

  // Only values the user wrote count here: fr_CA (backwards by default) and da (upper first by
  // default) stay usable at strength 1.
  if (doc['backwards'] === true && strength === 1) {
    throw new CollationDocumentError('BadValue', `'backwards' is invalid with 'strength' of 1: it orders secondary differences only.`);
  }
  if (doc['caseFirst'] !== undefined && caseFirst !== 'off' && !caseLevel && (strength === 1 || strength === 2)) {
    throw new CollationDocumentError(
      'BadValue',
      `'caseFirst' is invalid unless 'caseLevel' is on or 'strength' is greater than 2.`,
    );
  }

  const resolved: ResolvedCollation = {
    locale, strength, caseLevel, caseFirst, numericOrdering, alternate, maxVariable, normalization, backwards,
  };
  return resolved;
}
