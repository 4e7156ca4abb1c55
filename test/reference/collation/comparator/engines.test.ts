import { describe, expect, it } from 'vitest';
import { collatorFor, compareCodePoints, icuKeywords, parseCollation, toBcp47 } from '../../../../reference/collation/comparator/index.js';
import type { ResolvedCollation } from '../../../../reference/collation/types.js';
import { prepareComparator } from '../../../../reference/collation/comparator/index.js';

// the comparator's ICU4X engine loads once, before the first comparison
await prepareComparator();

const sign = (n: number): number => Math.sign(n);
const cmp = (doc: object, a: string, b: string): number => sign(collatorFor(doc).compare(a, b));
const sorted = (doc: object, words: readonly string[]): string[] => [...words].sort(collatorFor(doc).compare);

function resolved(doc: object): ResolvedCollation {
  const c = parseCollation(doc);
  if (c === 'simple') throw new Error('expected an ICU collation');
  return c;
}

describe('engine choice per resolved document', () => {
  it.each([
    [{ locale: 'simple' }, 'simple'],
    [{ locale: 'en' }, 'intl'],
    [{ locale: 'en', strength: 1, caseLevel: true }, 'intl'],
    [{ locale: 'en', alternate: 'shifted' }, 'intl'],
    [{ locale: 'th' }, 'intl'],
    [{ locale: 'fr_CA' }, 'intl'],
    [{ locale: 'da', numericOrdering: true }, 'intl'],
    [{ locale: 'de@collation=phonebook' }, 'intl'],
    [{ locale: 'es@collation=search' }, 'intl'],
    [{ locale: 'en', strength: 4 }, 'icu4x'],
    [{ locale: 'en', strength: 5 }, 'icu4x'],
    [{ locale: 'en', strength: 2, caseLevel: true }, 'icu4x'],
    [{ locale: 'en', strength: 3, caseLevel: true }, 'icu4x'],
    [{ locale: 'en', alternate: 'shifted', maxVariable: 'space' }, 'icu4x'],
    [{ locale: 'th', alternate: 'non-ignorable' }, 'icu4x'],
    [{ locale: 'fr', backwards: true }, 'secondary-direction+intl'],
    [{ locale: 'fr_CA', backwards: false }, 'secondary-direction+intl'],
    [{ locale: 'fr', strength: 4, backwards: true }, 'secondary-direction+icu4x'],
    [{ locale: 'fr_CA', strength: 1 }, 'intl'],
  ])('%j -> %s', (doc, engine) => {
    expect(collatorFor(doc).engine).toBe(engine);
  });

  it('gives every ICU4X collator its own options (icu 2.3.2 otherwise carries them over)', () => {
    expect(cmp({ locale: 'en', strength: 1, caseLevel: true, numericOrdering: true }, 'a', 'A')).toBe(-1);
    expect(sorted({ locale: 'fr', strength: 4 }, ['c\u00f4t\u00e9', 'cote', 'c\u00f4te', 'cot\u00e9'])).toEqual(
      ['cote', 'cot\u00e9', 'c\u00f4te', 'c\u00f4t\u00e9'],
    );
  });

  it('caches collators by resolved document', () => {
    expect(collatorFor({ locale: 'en' })).toBe(collatorFor({ locale: 'en', strength: 3, caseFirst: 'off' }));
    expect(collatorFor({ locale: 'en' })).not.toBe(collatorFor({ locale: 'en', strength: 2 }));
  });
});

describe('simple binary comparison', () => {
  it('orders by code point, not by UTF-16 unit', () => {
    expect(sign(compareCodePoints('\uFFFD', '\u{1F600}'))).toBe(-1);
    expect('\uFFFD' < '\u{1F600}').toBe(false); // what UTF-16 order would say
    expect(cmp({ locale: 'simple' }, 'B', 'a')).toBe(-1);
    expect(cmp({ locale: 'simple' }, 'a', 'ab')).toBe(-1);
    expect(cmp({ locale: 'simple' }, '\u00e9', 'e\u0301')).toBe(1);
    expect(collatorFor({ locale: 'simple' }).equals('a', 'a')).toBe(true);
    expect(collatorFor({ locale: 'simple' }).equals('a', 'A')).toBe(false);
  });
});

describe('levels and options', () => {
  it('strength 1 ignores case and accents, 2 ignores case, 3 orders both', () => {
    expect(cmp({ locale: 'en', strength: 1 }, 'a', 'A')).toBe(0);
    expect(cmp({ locale: 'en', strength: 1 }, 'a', '\u00e1')).toBe(0);
    expect(cmp({ locale: 'en', strength: 2 }, 'a', 'A')).toBe(0);
    expect(cmp({ locale: 'en', strength: 2 }, 'a', '\u00e1')).toBe(-1);
    expect(cmp({ locale: 'en', strength: 3 }, 'a', 'A')).toBe(-1);
    expect(collatorFor({ locale: 'en', strength: 2 }).equals('Cote', 'cote')).toBe(true);
  });

  it('caseLevel adds case at strength 1 and 2', () => {
    expect(cmp({ locale: 'en', strength: 1, caseLevel: true }, 'a', 'A')).toBe(-1);
    expect(cmp({ locale: 'en', strength: 1, caseLevel: true }, 'a', '\u00e1')).toBe(0);
    expect(cmp({ locale: 'en', strength: 2, caseLevel: true }, '\u00e1', '\u00c1')).toBe(-1);
    expect(cmp({ locale: 'en', strength: 2 }, '\u00e1', '\u00c1')).toBe(0);
    // Secondary comes before case: 'A' (no accent) sorts before 'á'.
    expect(cmp({ locale: 'en', strength: 2, caseLevel: true }, 'A', '\u00e1')).toBe(-1);
  });

  it('caseFirst chooses upper or lower case first; Danish is upper first by default', () => {
    expect(sorted({ locale: 'en' }, ['A', 'a', 'B', 'b'])).toEqual(['a', 'A', 'b', 'B']);
    expect(sorted({ locale: 'en', caseFirst: 'upper' }, ['a', 'A', 'b', 'B'])).toEqual(['A', 'a', 'B', 'b']);
    expect(sorted({ locale: 'en', caseFirst: 'lower' }, ['A', 'a'])).toEqual(['a', 'A']);
    expect(sorted({ locale: 'da' }, ['a', 'A'])).toEqual(['A', 'a']);
    expect(sorted({ locale: 'da', caseFirst: 'off' }, ['A', 'a'])).toEqual(['a', 'A']);
    expect(cmp({ locale: 'en', strength: 1, caseLevel: true, caseFirst: 'upper' }, 'A', 'a')).toBe(-1);
  });

  it('numericOrdering compares digit runs as numbers, without signs or decimals', () => {
    expect(sorted({ locale: 'en' }, ['2', '10', '1'])).toEqual(['1', '10', '2']);
    expect(sorted({ locale: 'en', numericOrdering: true }, ['2', '10', '1'])).toEqual(['1', '2', '10']);
    expect(cmp({ locale: 'en', numericOrdering: true }, '-5', '-10')).toBe(-1); // no sign: 5 < 10
    expect(cmp({ locale: 'en', numericOrdering: true }, '1.5', '1.10')).toBe(-1); // no decimals: 5 < 10
    expect(cmp({ locale: 'en', numericOrdering: true }, '007', '7')).toBe(0);
  });

  it('alternate shifted ignores spaces and punctuation; maxVariable space ignores only spaces', () => {
    expect(cmp({ locale: 'en' }, 'a b', 'ab')).toBe(-1);
    expect(cmp({ locale: 'en', alternate: 'shifted' }, 'a b', 'ab')).toBe(0);
    expect(cmp({ locale: 'en', alternate: 'shifted' }, 'a-b', 'ab')).toBe(0);
    expect(cmp({ locale: 'en', alternate: 'shifted' }, 'a$b', 'ab')).not.toBe(0); // symbols are not variable
    expect(cmp({ locale: 'en', alternate: 'shifted', maxVariable: 'space' }, 'a b', 'ab')).toBe(0);
    expect(cmp({ locale: 'en', alternate: 'shifted', maxVariable: 'space' }, 'a-b', 'ab')).not.toBe(0);
    expect(cmp({ locale: 'en', alternate: 'shifted', strength: 4 }, 'a b', 'ab')).not.toBe(0);
    expect(cmp({ locale: 'th' }, 'a b', 'ab')).toBe(0);
    expect(cmp({ locale: 'th', alternate: 'non-ignorable' }, 'a b', 'ab')).toBe(-1);
  });

  it('backwards orders accents from the end of the string (French)', () => {
    const words = ['c\u00f4t\u00e9', 'cote', 'c\u00f4te', 'cot\u00e9'];
    const forwards = ['cote', 'cot\u00e9', 'c\u00f4te', 'c\u00f4t\u00e9'];
    const backwards = ['cote', 'c\u00f4te', 'cot\u00e9', 'c\u00f4t\u00e9'];
    expect(sorted({ locale: 'fr' }, words)).toEqual(forwards);
    expect(sorted({ locale: 'fr', backwards: true }, words)).toEqual(backwards);
    expect(sorted({ locale: 'fr_CA' }, words)).toEqual(backwards);
    expect(sorted({ locale: 'fr_CA', backwards: false }, words)).toEqual(forwards);
    expect(sorted({ locale: 'en', backwards: true }, words)).toEqual(backwards);
    expect(sorted({ locale: 'fr', backwards: true, strength: 4 }, words)).toEqual(backwards);
    expect(sorted({ locale: 'fr', backwards: true, strength: 2, caseLevel: true }, words)).toEqual(backwards);
    // Decomposed accents are clustered with their letter.
    expect(sorted({ locale: 'fr', backwards: true }, ['co\u0302te\u0301', 'cote\u0301', 'co\u0302te', 'cote'])).toEqual(
      ['cote', 'co\u0302te', 'cote\u0301', 'co\u0302te\u0301'],
    );
    // Primary differences still come first, and case still counts after the accents.
    expect(cmp({ locale: 'fr', backwards: true }, 'c\u00f4te', 'cotf')).toBe(-1);
    expect(cmp({ locale: 'fr', backwards: true }, 'Cote', 'cot\u00e9')).toBe(-1);
    expect(cmp({ locale: 'fr', backwards: true }, 'Cote', 'cote')).toBe(1);
    expect(collatorFor({ locale: 'fr', backwards: true }).equals('c\u00f4te', 'co\u0302te')).toBe(true);
  });

  it('strength 4 and 5 separate what strength 3 calls equal', () => {
    expect(cmp({ locale: 'en', numericOrdering: true }, '1', '01')).toBe(0);
    expect(cmp({ locale: 'en', numericOrdering: true, strength: 5 }, '1', '01')).not.toBe(0);
    expect(cmp({ locale: 'en', strength: 5 }, '\u00c5', 'A\u030a')).toBe(0); // canonically equivalent
    expect(cmp({ locale: 'en', alternate: 'shifted' }, 'a-b', 'ab')).toBe(0);
    expect(cmp({ locale: 'en', alternate: 'shifted', strength: 4 }, 'a-b', 'ab')).not.toBe(0);
  });

  it('locale variants change the order (German phonebook)', () => {
    const words = ['Muller', 'M\u00fcller', 'Mueller', 'Mutter'];
    expect(sorted({ locale: 'de' }, words)).toEqual(['Mueller', 'Muller', 'M\u00fcller', 'Mutter']);
    expect(sorted({ locale: 'de@collation=phonebook' }, words)).toEqual(['Mueller', 'M\u00fcller', 'Muller', 'Mutter']);
  });
});

describe('numericOrdering digit runs (spec part F limits)', () => {
  const docs = [{ locale: 'en', numericOrdering: true }, { locale: 'en', numericOrdering: true, strength: 4 }];
  it.each(docs)('%j: a run longer than 254 digits is split, the excess a separate number', (doc) => {
    // Unsplit, a 255-digit number would exceed any 254-digit one; split, 254 nines outweigh '1000..'.
    expect(cmp(doc, '9'.repeat(255), '1' + '0'.repeat(255))).toBe(1);
    // Runs of at most 254 digits compare as whole numbers.
    expect(cmp(doc, '9'.repeat(253), '1' + '0'.repeat(253))).toBe(-1);
    expect(cmp(doc, '9'.repeat(254), '1' + '0'.repeat(254))).toBe(1);
    // Leading zeros do not count towards the 254.
    expect(cmp(doc, '0'.repeat(10) + '9'.repeat(253), '1' + '0'.repeat(253))).toBe(-1);
    // The excess digits compare as their own number: ...1|2 vs ...1|10.
    expect(cmp(doc, '1'.repeat(254) + '2', '1'.repeat(254) + '10')).toBe(-1);
  });

  it.each(docs)('%j: every Nd digit counts (Arabic-Indic, Devanagari, fullwidth, mathematical)', (doc) => {
    expect(cmp(doc, '\u0663', '10')).toBe(-1); // ٣ < 10
    expect(cmp(doc, '\u0663', '\u0661\u0660')).toBe(-1); // ٣ < ١٠
    expect(cmp(doc, '\u0969', '10')).toBe(-1); // ३ < 10
    expect(cmp(doc, '\uff13', '10')).toBe(-1); // ３ < 10
    expect(cmp(doc, '\u{1D7D7}', '10')).toBe(-1); // 𝟗 < 10
    expect(cmp(doc, 'a\u0663b', 'a10b')).toBe(-1);
    expect(cmp(doc, '\u0663', '2')).toBe(1);
  });
});

describe('locale conversion and ICU keywords', () => {
  it('converts ICU locale identifiers to BCP 47', () => {
    expect(toBcp47('fr_CA')).toEqual({ tag: 'fr-CA', collation: undefined });
    expect(toBcp47('zh@collation=unihan')).toEqual({ tag: 'zh', collation: 'unihan' });
    expect(toBcp47('de@collation=phonebook')).toEqual({ tag: 'de', collation: 'phonebk' });
    expect(toBcp47('es@collation=traditional')).toEqual({ tag: 'es', collation: 'trad' });
    expect(toBcp47('zh@collation=gb2312han')).toEqual({ tag: 'zh', collation: 'gb2312' });
    expect(toBcp47('en_US_POSIX')).toEqual({ tag: 'en-US-u-va-posix', collation: undefined });
    expect(toBcp47('root')).toEqual({ tag: 'und', collation: undefined });
  });

  it('spells every setting as a sorted -u- keyword', () => {
    expect(icuKeywords(resolved({ locale: 'fr_CA' }))).toBe(
      'fr-CA-u-ka-noignore-kb-true-kc-false-kf-false-kk-false-kn-false-ks-level3-kv-punct',
    );
    expect(
      icuKeywords(resolved({
        locale: 'zh@collation=unihan', strength: 5, caseLevel: true, caseFirst: 'upper', numericOrdering: true,
        alternate: 'shifted', maxVariable: 'space', normalization: true,
      })),
    ).toBe('zh-u-co-unihan-ka-shifted-kb-false-kc-true-kf-upper-kk-true-kn-true-ks-identic-kv-space');
    expect(icuKeywords(resolved({ locale: 'th', strength: 1 }))).toBe(
      'th-u-ka-shifted-kb-false-kc-false-kf-false-kk-true-kn-false-ks-level1-kv-punct',
    );
    expect(icuKeywords(resolved({ locale: 'en_US_POSIX', strength: 4 }))).toBe(
      'en-US-u-ka-noignore-kb-false-kc-false-kf-false-kk-false-kn-false-ks-level4-kv-punct-va-posix',
    );
  });

  it('produces tags Intl accepts with the same collation type', () => {
    const tag = icuKeywords(resolved({ locale: 'de@collation=phonebook' }));
    expect(new Intl.Collator(tag).resolvedOptions().collation).toBe('phonebk');
  });
});
