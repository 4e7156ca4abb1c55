import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collationString, nearPair } from '../../../../generators/collation/collation-string.js';
import { collatorFor, parseCollation, prepareComparator } from '../../../../reference/collation/comparator/index.js';
import { makeIcu4xCompare } from '../../../../reference/collation/comparator/engine-icu4x.js';
import { makeIntlCollator } from '../../../../reference/collation/comparator/engine-intl.js';
import { intlLevelsOf, makeIntlFirstCompare } from '../../../../reference/collation/comparator/intl-first.js';
import type { ResolvedCollation } from '../../../../reference/collation/types.js';

// the comparator's ICU4X engine loads once, before the first comparison
await prepareComparator();

function resolved(doc: object): ResolvedCollation {
  const c = parseCollation(doc);
  if (c === 'simple') throw new Error('expected an ICU collation');
  return c;
}

/** The comparison through Intl first, as make-collator.ts builds it, with its memo of `generation` entries. */
function intlFirst(c: ResolvedCollation, generation?: number): { compare: (a: string, b: string) => number; icu4xCalls: () => number } {
  const icu4x = makeIcu4xCompare(c);
  let calls = 0;
  const full = (a: string, b: string): number => (calls++, icu4x(a, b));
  const tertiary = makeIcu4xCompare({ ...c, strength: 3, caseLevel: false });
  const primary = (): ((a: string, b: string) => number) => makeIcu4xCompare({ ...c, strength: 1, caseLevel: false });
  const compare = makeIntlFirstCompare(c, { full, tertiary, primary, ...(generation === undefined ? {} : { memoGeneration: generation }) });
  if (compare === undefined) throw new Error(`Intl shares no level with ${JSON.stringify(c)}`);
  return { compare, icu4xCalls: () => calls };
}

/**
 * What the generator lacks and Intl first must leave to ICU4X: ideographs whose order ICU4X and
 * Node's ICU disagree on (implicit weights against radical and stroke) and characters that
 * decompose to one (the generator's own CJK happen to agree), and whitespace followed by a
 * combining mark (dropped after a variable character under alternate shifted).
 */
const AWKWARD = [
  '\u963F', '\u4E00', '\u4E8C', '\u9FA5', '\u3400', '\u4DB5', '\u{20000}', '\u{2A6D6}', '\uF900', '\u2F00', '\u2F06', '\u3220', '\u3007',
  ' \u0301', ' \u0300', '\u00A0\u0308', '\t\u0323', '\u3000\u0302',
];
const text = fc
  .array(fc.oneof({ weight: 3, arbitrary: collationString(3) }, { weight: 1, arbitrary: fc.constantFrom(...AWKWARD) }), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join(''));

// one document of each kind Intl cannot express, with locales that tailor and reorder
const documents = [
  { locale: 'en', strength: 4, alternate: 'shifted' },
  { locale: 'en', strength: 4 },
  { locale: 'en', strength: 5 },
  { locale: 'en', strength: 2, caseLevel: true },
  { locale: 'en', strength: 3, caseLevel: true, caseFirst: 'upper' },
  { locale: 'en', alternate: 'shifted', maxVariable: 'space' },
  { locale: 'en', strength: 4, alternate: 'shifted', maxVariable: 'space' },
  { locale: 'en', strength: 5, numericOrdering: true },
  { locale: 'zh@collation=unihan', strength: 5, numericOrdering: true },
  { locale: 'zh', strength: 4 },
  { locale: 'ja', strength: 4, alternate: 'shifted' },
  { locale: 'ko', strength: 2, caseLevel: true },
  { locale: 'da', strength: 5, caseFirst: 'upper' },
  { locale: 'de@collation=phonebook', strength: 4 },
  { locale: 'es@collation=traditional', strength: 5 },
  { locale: 'fr', alternate: 'shifted', maxVariable: 'space', numericOrdering: true },
];

describe('Intl first, then ICU4X: the same answers as ICU4X alone', () => {
  it.each(documents)('%j: generated strings sort and compare as ICU4X orders them', (doc) => {
    const c = resolved(doc);
    const icu4x = makeIcu4xCompare(c);
    // a small memo, so that strings leave it and come back within one property
    const { compare } = intlFirst(c, 16);
    fc.assert(
      fc.property(fc.array(text, { maxLength: 24 }), nearPair(5), (strings, [p, q]) => {
        const all = [...strings, p, q];
        for (const a of all) for (const b of all) expect(Math.sign(compare(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(Math.sign(icu4x(a, b)));
      }),
      { numRuns: 60, seed: 20260914 },
    );
  });

  // the documents the collation-sort benchmark gives ICU4X, and locales with and without the ideographs' map
  const benchmarked = [
    { locale: 'en', strength: 4, alternate: 'shifted' },
    { locale: 'en', strength: 5 },
    { locale: 'en', strength: 2, caseLevel: true },
    { locale: 'en', alternate: 'shifted', maxVariable: 'space' },
    { locale: 'fr', strength: 4, alternate: 'shifted', maxVariable: 'space', numericOrdering: true },
    { locale: 'zh', strength: 5, numericOrdering: true },
    { locale: 'ja', strength: 2, caseLevel: true },
  ];
  // generated strings, some with ideographs from anywhere in the main block
  const mainBlock = fc.integer({ min: 0x4e00, max: 0x9fff }).map((cp) => String.fromCharCode(cp));
  const sortable = fc.array(fc.oneof({ weight: 4, arbitrary: collationString(3) }, { weight: 1, arbitrary: mainBlock }), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));

  it.each(benchmarked)('%j: the comparator sorts 3,000 generated strings as ICU4X alone orders them', (doc) => {
    const ours = collatorFor(doc);
    expect(ours.engine).toBe('icu4x');
    const reference = makeIcu4xCompare(resolved(doc));
    const strings = fc.sample(sortable, { numRuns: 3000, seed: 20261129 });
    const sorted = strings.slice().sort(ours.compare);
    const wrong: string[] = [];
    for (let i = 1; i < sorted.length; i++) {
      const a = sorted[i - 1] ?? '';
      const b = sorted[i] ?? '';
      if (reference(a, b) > 0) wrong.push(`${JSON.stringify(a)} > ${JSON.stringify(b)}`);
    }
    // and every pair of a sample, both ways
    const sample = strings.slice(0, 120);
    for (const a of sample) for (const b of sample) if (Math.sign(ours.compare(a, b)) !== Math.sign(reference(a, b))) wrong.push(`${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('is what the comparator uses for documents Intl cannot express', () => {
    const c = resolved({ locale: 'en', strength: 5 });
    const ours = collatorFor(c);
    expect(ours.engine).toBe('icu4x');
    expect(Math.sign(ours.compare('\u4E2Da', '\u{20000}'))).toBe(Math.sign(makeIcu4xCompare(c)('\u4E2Da', '\u{20000}')));
  });

  it('asks ICU4X for few of a sort’s comparisons (under 1%: ideographs go to Intl too)', () => {
    const strings = fc.sample(collationString(6), { numRuns: 3000, seed: 5 });
    for (const doc of [{ locale: 'en', strength: 5 }, { locale: 'en', strength: 2, caseLevel: true }, { locale: 'en', alternate: 'shifted', maxVariable: 'space' }]) {
      const { compare, icu4xCalls } = intlFirst(resolved(doc));
      let comparisons = 0;
      strings.slice().sort((a, b) => (comparisons++, compare(a, b)));
      expect(icu4xCalls() / comparisons, JSON.stringify(doc)).toBeLessThan(0.01);
    }
  });

  it('shares levels 1-3, or 1-2 under caseLevel, and none with non-ignorable Thai', () => {
    expect(intlLevelsOf(resolved({ locale: 'en', strength: 5 }))?.strength).toBe(3);
    expect(intlLevelsOf(resolved({ locale: 'en', strength: 4, caseLevel: true }))).toMatchObject({ strength: 2, caseLevel: false });
    expect(intlLevelsOf(resolved({ locale: 'en', alternate: 'shifted', maxVariable: 'space' }))).toMatchObject({ strength: 3, alternate: 'non-ignorable' });
    expect(makeIntlFirstCompare(resolved({ locale: 'th', alternate: 'non-ignorable' }), { full: () => 0 })).toBeUndefined();
  });
});

/** Every assigned BMP character outside the surrogates and private use, as a string. */
function bmpCharacters(): string[] {
  const out: string[] = [];
  for (let cp = 0; cp <= 0xffff; cp++) {
    const ch = String.fromCodePoint(cp);
    if (!/[\p{Cn}\p{Cs}\p{Co}]/u.test(ch)) out.push(ch);
  }
  return out;
}

describe('what Intl first rests on: Node’s ICU and ICU4X order characters alike', () => {
  const c = resolved({ locale: 'en' });
  const intl = makeIntlCollator(c);
  const icu4x = makeIcu4xCompare(c);
  const ideographic = /[\p{Ideographic}\p{Unified_Ideograph}\p{Radical}]/u;
  const characters = bmpCharacters().filter((ch) => !ideographic.test(ch.normalize('NFKD')));

  it('every BMP character but the ideographs, at strength 3', () => {
    if (intl === undefined) throw new Error('Intl cannot express en');
    const ordered = characters.slice().sort(icu4x);
    const disagreements: string[] = [];
    for (let i = 1; i < ordered.length; i++) {
      const a = ordered[i - 1] ?? '';
      const b = ordered[i] ?? '';
      if (Math.sign(intl.compare(a, b)) !== Math.sign(icu4x(a, b))) disagreements.push(`${a} ${b}`);
    }
    expect(disagreements).toEqual([]);
  }, 120_000);

  it('ideographs against every other BMP character, though not against each other', () => {
    if (intl === undefined) throw new Error('Intl cannot express en');
    // the first and last of the main block, of extension A and B, a compatibility ideograph, a radical
    const ideographs = ['\u4E00', '\u9FFF', '\u3400', '\u4DBF', '\u{20000}', '\u{2A6DF}', '\uF900', '\u2F00'];
    const disagreements: string[] = [];
    for (const h of ideographs) for (const ch of characters) if (Math.sign(intl.compare(h, ch)) !== Math.sign(icu4x(h, ch))) disagreements.push(`${h} ${ch}`);
    expect(disagreements).toEqual([]);
    expect(Math.sign(intl.compare('\u963F', '\u{20000}'))).not.toBe(Math.sign(icu4x('\u963F', '\u{20000}')));
  }, 120_000);
});
