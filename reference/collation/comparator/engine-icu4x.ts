import type { ResolvedCollation } from '../types.js';
import { toBcp47, withUnicodeKeywords } from './locale.js';

/**
 * ICU4X (the `icu` package, a ~20 MB WebAssembly module) for documents Node's Intl cannot express:
 * strength 4 and 5, caseLevel at strength 2 or 3, maxVariable space, non-ignorable Thai.
 *
 * The module instantiates its WebAssembly with a top-level await, so it cannot be loaded on
 * demand from a synchronous compare; this file awaits it once, and only the collation comparator
 * imports this file. (About 200 ms and 80 MB the first time.)
 *
 * caseFirst and numericOrdering go through the locale's `-u-kf-` / `-u-kn-` keywords. ICU4X has no
 * backwards option (the backwards layer handles that) and always normalizes (see engine-intl.ts on
 * why that is fine).
 *
 * Every option is passed explicitly: in icu 2.3.2 an option left out is not reset to the locale
 * default but keeps the value of the previously constructed collator (after building a primary,
 * caseLevel collator, a plain `fr` collator sorted cote/côte/coté/côté as all equal).
 */
const icu = await import('icu');

const STRENGTH = {
  1: icu.CollatorStrength.Primary,
  2: icu.CollatorStrength.Secondary,
  3: icu.CollatorStrength.Tertiary,
  4: icu.CollatorStrength.Quaternary,
  5: icu.CollatorStrength.Identical,
} as const;

/** The BCP 47 tag ICU4X is given: locale, collation type, caseFirst and numeric keywords. */
export function icu4xLocaleTag(c: ResolvedCollation): string {
  const { tag, collation } = toBcp47(c.locale);
  const keywords: string[] = [];
  if (collation !== undefined) keywords.push('co', collation);
  keywords.push('kf', c.caseFirst === 'off' ? 'false' : c.caseFirst, 'kn', String(c.numericOrdering));
  return withUnicodeKeywords(tag, keywords);
}

export function makeIcu4xCompare(c: ResolvedCollation): (a: string, b: string) => number {
  const collator = new icu.Collator(icu.Locale.fromString(icu4xLocaleTag(c)), {
    strength: STRENGTH[c.strength],
    alternateHandling: c.alternate === 'shifted' ? icu.CollatorAlternateHandling.Shifted : icu.CollatorAlternateHandling.NonIgnorable,
    maxVariable: c.maxVariable === 'space' ? icu.CollatorMaxVariable.Space : icu.CollatorMaxVariable.Punctuation,
    caseLevel: c.caseLevel ? icu.CollatorCaseLevel.On : icu.CollatorCaseLevel.Off,
  });
  return (a, b) => collator.compare(a, b);
}
