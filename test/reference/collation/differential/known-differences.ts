/**
 * Where the reference comparator and real ICU are known to disagree, and why. A difference the
 * differential tests find fails them unless an entry here explains it; each entry's example pair
 * is checked to still differ (known-differences.test.ts), so an entry that no longer holds fails
 * too. Keep it short: every entry is a place where specgate's verdict rests on its own reading.
 *
 * The other side runs ICU 72 (Unicode 15, CLDR 42: PyICU and PostgreSQL 15 on Debian 12); the
 * reference runs on Node's ICU 78 (Unicode 17, CLDR 48) and ICU4X.
 */
import { isFcd, makeCollator, toBcp47 } from '../../../../reference/collation/comparator/index.js';
import type { Collation, ResolvedCollation } from '../../../../reference/collation/types.js';

/** Which real ICU the difference is seen against. */
export type Against = 'pyicu' | 'postgres';

export interface KnownDifference {
  id: string;
  against: readonly Against[];
  /** Which option and which characters, and why the two sides differ. */
  reason: string;
  /** Whether a differing pair under this collation is explained by this entry. */
  applies(collation: Collation, a: string, b: string): boolean;
  /** A pair that differs today: a document and two strings (known-differences.test.ts checks it still does). */
  example: { document: Record<string, unknown>; a: string; b: string };
}

export { isFcd };

const resolved = (c: Collation): ResolvedCollation | undefined => (c === 'simple' ? undefined : c);

/** Which of the reference's engines compares under the collation. */
const engine = (c: Collation): string => makeCollator(c).engine;

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/** Node's Intl at primary strength for the collation's locale and variant (Intl agrees with ICU on Han order). */
function primaryOf(c: Collation): Intl.Collator {
  const r = resolved(c);
  const { tag, collation } = toBcp47(r?.locale ?? 'und');
  return new Intl.Collator(collation ? `${tag}-u-co-${collation}` : tag, { sensitivity: 'base', numeric: r?.numericOrdering ?? false });
}

/** Two-letter spellings a single letter may expand to at primary level (ä = ae in phonebook, æ = ae, ß = ss, œ = oe). */
const EXPANSIONS = ['ae', 'oe', 'ue', 'ss', 'aa', 'ij', 'th'];

/**
 * True when some grapheme cluster of `s` has several secondary weights: two or more combining
 * marks once decomposed, or a letter that expands to two letters at primary level.
 */
export function hasSeveralSecondaries(c: Collation, s: string): boolean {
  const primary = primaryOf(c);
  for (const { segment } of graphemes.segment(s)) {
    if ((segment.normalize('NFD').match(/\p{M}/gu)?.length ?? 0) >= 2) return true;
    if (/^\p{L}$/u.test(segment) && EXPANSIONS.some((e) => primary.compare(segment, e) === 0)) return true;
  }
  return false;
}

/**
 * True when the first grapheme clusters where `a` and `b` differ at primary level are both
 * unified ideographs (Han): everything before them is equal at primary level.
 */
export function firstPrimaryDifferenceIsHan(c: Collation, a: string, b: string): boolean {
  const primary = primaryOf(c);
  const x = [...graphemes.segment(a)].map((g) => g.segment);
  const y = [...graphemes.segment(b)].map((g) => g.segment);
  let i = 0;
  while (i < x.length && i < y.length && primary.compare(x[i] ?? '', y[i] ?? '') === 0) i++;
  const han = /^\p{Unified_Ideograph}$/u;
  return han.test(x[i] ?? '') && han.test(y[i] ?? '');
}

/**
 * True when `a` and `b` share a prefix that ends in a decimal digit and one of them goes on with
 * a decimal digit other than ASCII (1a against 1١٢): the shared digits belong to a longer number.
 */
export function sharedDigitPrefixThenOtherDigit(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  if (i === 0 || !/^\p{Nd}$/u.test(x[i - 1] ?? '')) return false;
  const nonAsciiDigit = (ch: string | undefined): boolean => ch !== undefined && /^\p{Nd}$/u.test(ch) && !/^[0-9]$/.test(ch);
  return nonAsciiDigit(x[i]) || nonAsciiDigit(y[i]);
}

/** True when `s` has a decimal digit (Nd) outside the Basic Multilingual Plane (𝟏, Kawi digits). */
export function hasAstralDigit(s: string): boolean {
  return /[\u{10000}-\u{10FFFF}]/u.test(s) && [...s].some((ch) => (ch.codePointAt(0) ?? 0) > 0xffff && /\p{Nd}/u.test(ch));
}

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    id: 'non-fcd-without-normalization',
    against: ['pyicu', 'postgres'],
    reason:
      'normalization false (the default of most locales) on text that is not in FCD form, such as combining marks out of canonical order (U+0301 acute, ccc 230, before U+0323 dot below, ccc 220): ICU documents the result as undefined, and ICU compares the marks in the order written, while the reference compares canonically equivalent text as equal',
    applies: (c, a, b) => resolved(c)?.normalization === false && (!isFcd(a) || !isFcd(b)),
    example: { document: { locale: 'en' }, a: '\u00C2', b: 'A\u0301\u0323' },
  },
  {
    id: 'backwards-layer-several-secondaries',
    against: ['pyicu', 'postgres'],
    reason:
      "backwards set against the locale's own direction (e.g. backwards true on en, th, da): neither Node's Intl nor ICU4X takes the option, so the reference's secondary-direction layer compares grapheme clusters from the end, and the accents inside a cluster from the last one; a cluster whose characters expand to several collation elements (ß = ss, against ss with an accent) keeps the engine's forward order, where ICU reads every secondary weight of the string backwards",
    applies: (c, a, b) => engine(c).startsWith('secondary-direction') && (hasSeveralSecondaries(c, a) || hasSeveralSecondaries(c, b)),
    example: { document: { locale: 'en', backwards: true }, a: '\u00DF', b: 'ss\u0301' },
  },
  {
    id: 'icu4x-implicit-han-order',
    against: ['pyicu', 'postgres'],
    reason:
      "documents only ICU4X can express (strength 4 and 5, caseLevel at strength 2 or 3, maxVariable space): the ICU4X data in the icu package orders Han ideographs by the UCA's implicit weights (the CJK Unified Ideographs block before the extension blocks), while ICU's root collation orders every unified ideograph by radical and stroke; Node's Intl (strength 1 to 3) agrees with ICU",
    applies: (c, a, b) => engine(c).endsWith('icu4x') && firstPrimaryDifferenceIsHan(c, a, b),
    example: { document: { locale: 'en', strength: 4 }, a: '\u963F', b: '\u{20000}' },
  },
  {
    id: 'numeric-astral-digits-utf8',
    against: ['postgres'],
    reason:
      'numericOrdering with decimal digits outside the BMP (U+1D7CF MATHEMATICAL BOLD DIGIT ONE, Kawi digits): ICU 72 itself disagrees with itself. Its UTF-16 comparison (what Node\'s Intl, and so the reference, and PyICU call) does not read "𝟏𝟏" followed by a letter as the number 11, while its sort keys and its UTF-8 comparison (what PostgreSQL calls) do; the specification counts every Nd character as a digit, which favours PostgreSQL\'s answer',
    applies: (c, a, b) => resolved(c)?.numericOrdering === true && (hasAstralDigit(a) || hasAstralDigit(b)),
    example: { document: { locale: 'en', numericOrdering: true }, a: '\u{1D7CF}\u{1D7CF}\u00D1', b: '\u{1D7CF}\u516B\u884C' },
  },
  {
    id: 'icu-numeric-shared-digit-prefix-zh-ja',
    against: ['pyicu', 'postgres'],
    reason:
      'numericOrdering on zh and ja (locales that reorder scripts), when the strings share a prefix ending in a digit and one goes on with a non-ASCII digit ("1a" against "1١٢", the number 112): ICU\'s string comparison (ICU 72 and Node\'s ICU 78 alike) compares "a" against the number 12, while ICU\'s own sort keys and ICU4X compare 1 against 112, as the specification reads it; the reference answers with ICU4X for documents Intl cannot express (here strength 5), so only those differ',
    applies: (c, a, b) => resolved(c)?.numericOrdering === true && /^(zh|ja)\b/.test(resolved(c)?.locale ?? '') && sharedDigitPrefixThenOtherDigit(a, b),
    example: { document: { locale: 'zh@collation=unihan', numericOrdering: true, strength: 5 }, a: '1a', b: '1\u0661\u0662' },
  },
  {
    id: 'icu-compare-nbsp-space-group',
    against: ['pyicu', 'postgres'],
    reason:
      "alternate shifted with maxVariable space, on U+00A0 NO-BREAK SPACE: ICU 72's string comparison (its fast path for Latin text) treats it as a base character, while ICU 72's own sort keys, ICU4X and the reference treat it as the whitespace it is (it has the primary weight of SPACE, which is ignorable here): compare('a\\u00A0b', 'ab') is -1 but their sort keys are equal. The suite judges the specification's reading (whitespace is ignorable), so a database on ICU 72 fails COLL-ALT-MAXVAR-SPACE on it (suites/collation/FINDINGS.md)",
    applies: (c, a, b) => resolved(c)?.alternate === 'shifted' && resolved(c)?.maxVariable === 'space' && (a.includes('\u00A0') || b.includes('\u00A0')),
    example: { document: { locale: 'en', alternate: 'shifted', maxVariable: 'space' }, a: 'a\u00A0b', b: 'ab' },
  },
];
