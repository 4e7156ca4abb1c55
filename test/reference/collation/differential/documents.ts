/**
 * The collation documents the differential tests run: every locale the tests name with its
 * defaults, every option value on `en`, the options that matter most on other locales, and a
 * fixed sample of random combinations from the suite's generator.
 */
import fc from 'fast-check';
import { validCollationDocument } from '../../../../generators/collation/collation-document.js';
import { parseCollation } from '../../../../reference/collation/comparator/index.js';
import { SEED } from './strings.js';

export type CollationDocument = Record<string, unknown>;

export const LOCALES = ['en', 'fr', 'fr_CA', 'de', 'de@collation=phonebook', 'da', 'sv', 'th', 'zh@collation=unihan', 'ja', 'tr'] as const;

const EACH_OPTION: CollationDocument[] = [
  ...[1, 2, 3, 4, 5].map((strength) => ({ strength })),
  { strength: 1, caseLevel: true },
  { strength: 2, caseLevel: true },
  { strength: 3, caseLevel: true },
  { caseLevel: false },
  { caseFirst: 'upper' },
  { caseFirst: 'lower' },
  { caseFirst: 'off' },
  { strength: 1, caseLevel: true, caseFirst: 'upper' },
  { numericOrdering: true },
  { numericOrdering: false },
  { alternate: 'shifted' },
  { alternate: 'shifted', strength: 4 },
  { alternate: 'shifted', maxVariable: 'space' },
  { alternate: 'shifted', maxVariable: 'space', strength: 4 },
  { alternate: 'non-ignorable', maxVariable: 'space' },
  { alternate: 'shifted', strength: 1 },
  { backwards: true },
  { backwards: false },
  { normalization: true },
  { normalization: false },
];

/** Options whose effect depends on the locale's tailoring, run on the other locales too. */
const PER_LOCALE: CollationDocument[] = [{ strength: 1 }, { strength: 2, backwards: true }, { caseFirst: 'upper', numericOrdering: true }];

const accepted = (doc: CollationDocument): boolean => {
  try {
    parseCollation(doc);
    return true;
  } catch {
    return false;
  }
};

/**
 * The fixed documents, then random ones the reference accepts (the generator draws fields
 * independently, so some combinations break a rule between fields, such as backwards at strength 1).
 */
export function collationDocuments(randomCount = 12): CollationDocument[] {
  const docs: CollationDocument[] = [{ locale: 'simple' }];
  for (const locale of LOCALES) docs.push({ locale });
  for (const o of EACH_OPTION) docs.push({ locale: 'en', ...o });
  for (const locale of ['fr_CA', 'da', 'de@collation=phonebook', 'th', 'ja', 'tr']) for (const o of PER_LOCALE) docs.push({ locale, ...o });
  docs.push(...fc.sample(validCollationDocument([...LOCALES]), { numRuns: randomCount * 2, seed: SEED }).filter(accepted).slice(0, randomCount));
  return docs;
}

/** The document as a short label for failure messages. */
export function label(doc: CollationDocument): string {
  return JSON.stringify(doc);
}
