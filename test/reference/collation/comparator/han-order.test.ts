import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCollation, prepareComparator } from '../../../../reference/collation/comparator/index.js';
import { makeIcu4xCompare } from '../../../../reference/collation/comparator/engine-icu4x.js';
import { makeIntlCollator } from '../../../../reference/collation/comparator/engine-intl.js';
import { blockPlacedAlike, hanOrderMap, inMainBlock, MAIN_BLOCK_FIRST, MAIN_BLOCK_LAST, OTHER_BLOCK_IDEOGRAPHS, PLACEMENT_SENTINELS, rewriteHan } from '../../../../reference/collation/comparator/han-order.js';
import type { ResolvedCollation } from '../../../../reference/collation/types.js';

// the comparator's ICU4X engine loads once, before the first comparison
await prepareComparator();

function resolved(doc: object): ResolvedCollation {
  const c = parseCollation(doc);
  if (c === 'simple') throw new Error('expected an ICU collation');
  return c;
}

function intlOf(c: ResolvedCollation): Intl.Collator {
  const intl = makeIntlCollator(c);
  if (intl === undefined) throw new Error(`Intl cannot express ${JSON.stringify(c)}`);
  return intl;
}

/** The map for a locale, made from ICU4X and Intl at primary strength as intl-first.ts makes it. */
function mapFor(locale: string): Uint16Array | undefined {
  const c = resolved({ locale, strength: 1 });
  return hanOrderMap(makeIcu4xCompare(c), intlOf(c).compare);
}

const BLOCK_SIZE = MAIN_BLOCK_LAST - MAIN_BLOCK_FIRST + 1;
const ideograph = fc.integer({ min: MAIN_BLOCK_FIRST, max: MAIN_BLOCK_LAST }).map((cp) => String.fromCharCode(cp));

describe('hanOrderMap: the main block’s ideographs in ICU4X’s order, for Intl', () => {
  const map = mapFor('en');

  it('exists for en and is a permutation of the block', () => {
    expect(map).toBeDefined();
    const seen = new Set(map);
    expect(seen.size).toBe(BLOCK_SIZE);
    for (const unit of seen) expect(unit >= MAIN_BLOCK_FIRST && unit <= MAIN_BLOCK_LAST).toBe(true);
  });

  it('orders the whole block as ICU4X does: each ideograph against the next, both engines at strength 3', () => {
    if (map === undefined) throw new Error('no map for en');
    const c = resolved({ locale: 'en' });
    const icu4x = makeIcu4xCompare(c);
    const intl = intlOf(c);
    const wrong: string[] = [];
    for (let cp = MAIN_BLOCK_FIRST; cp < MAIN_BLOCK_LAST; cp++) {
      const a = String.fromCharCode(cp);
      const b = String.fromCharCode(cp + 1);
      if (Math.sign(intl.compare(rewriteHan(a, map), rewriteHan(b, map))) !== Math.sign(icu4x(a, b))) wrong.push(cp.toString(16));
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('keeps the block where ICU4X has it among every other BMP character', () => {
    if (map === undefined) throw new Error('no map for en');
    const c = resolved({ locale: 'en' });
    const icu4x = makeIcu4xCompare(c);
    const intl = intlOf(c);
    const ideographic = /[\p{Ideographic}\p{Unified_Ideograph}\p{Radical}]/u;
    // the rewritten block's first and last, against ICU4X's first and last
    const ends: [string, string][] = [[String.fromCharCode(map[0] ?? 0), '\u4E00'], [String.fromCharCode(map[BLOCK_SIZE - 1] ?? 0), '\u9FFF']];
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0xffff; cp++) {
      const ch = String.fromCharCode(cp);
      if (/[\p{Cn}\p{Cs}\p{Co}]/u.test(ch) || ideographic.test(ch.normalize('NFKD'))) continue;
      for (const [rewritten, original] of ends) if (Math.sign(intl.compare(ch, rewritten)) !== Math.sign(icu4x(ch, original))) wrong.push(`${cp.toString(16)} ${original}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('gives Intl ICU4X’s answers on strings of ideographs, letters and marks', () => {
    if (map === undefined) throw new Error('no map for en');
    const c = resolved({ locale: 'en' });
    const icu4x = makeIcu4xCompare(c);
    const intl = intlOf(c);
    const piece = fc.oneof(ideograph, fc.constantFrom('a', 'B', '\u00E9', '\u0301', ' ', '-', '1'));
    const text = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(intl.compare(rewriteHan(a, map), rewriteHan(b, map))), `${a} vs ${b}`).toBe(Math.sign(icu4x(a, b)));
      }),
      { numRuns: 3000, seed: 20261129 },
    );
  });

  it('does not exist where ICU4X orders the block otherwise (zh, ja, ko tailor the ideographs)', () => {
    for (const locale of ['zh', 'ja', 'ko']) expect(mapFor(locale), locale).toBeUndefined();
  }, 60_000);

  it('does not exist when an engine’s order is not strict, or not code point order in ICU4X', () => {
    const c = resolved({ locale: 'en', strength: 1 });
    const icu4x = makeIcu4xCompare(c);
    const intl = intlOf(c).compare;
    expect(hanOrderMap((a, b) => -icu4x(a, b), intl)).toBeUndefined();
    expect(hanOrderMap(icu4x, () => 0)).toBeUndefined();
  }, 60_000);
});

describe('the block’s place among other characters, checked when the map is made', () => {
  const c = resolved({ locale: 'en', strength: 1 });
  const icu4x = makeIcu4xCompare(c);
  const intl = intlOf(c).compare;
  /** `compare`, except that it places every ideograph of the main block after `sentinel` (side 1) or before it (side -1). */
  const moved = (compare: (a: string, b: string) => number, sentinel: string, side: 1 | -1) => (a: string, b: string): number => {
    if (b === sentinel && a.length === 1 && inMainBlock(a.charCodeAt(0))) return side;
    if (a === sentinel && b.length === 1 && inMainBlock(b.charCodeAt(0))) return -side;
    return compare(a, b);
  };

  it('refuses the map when Intl is made to put the block before Hangul (ICU4X has it after), though it orders the block as before', () => {
    expect(Math.sign(icu4x('\u4E00', '\uAC00'))).toBe(1);
    expect(hanOrderMap(icu4x, intl)).toBeDefined();
    expect(hanOrderMap(icu4x, moved(intl, '\uAC00', -1))).toBeUndefined();
  }, 60_000);

  it('finds a difference at each sentinel that one engine puts on the other side of the block', () => {
    const map = hanOrderMap(icu4x, intl);
    if (map === undefined) throw new Error('no map for en');
    expect(blockPlacedAlike(map, icu4x, intl)).toBe(true);
    for (const sentinel of PLACEMENT_SENTINELS) {
      // the block's first ideograph is before the sentinel or after it in ICU4X: move the whole block to the other side
      const side = Math.sign(icu4x('\u4E00', sentinel)) < 0 ? 1 : -1;
      expect(blockPlacedAlike(map, moved(icu4x, sentinel, side), intl), sentinel).toBe(false);
      expect(blockPlacedAlike(map, icu4x, moved(intl, sentinel, side)), sentinel).toBe(false);
    }
  });

  it('leaves out Extension A and B, which the engines place differently from the block (so checking them would refuse every map)', () => {
    const map = hanOrderMap(icu4x, intl);
    if (map === undefined) throw new Error('no map for en');
    for (const other of OTHER_BLOCK_IDEOGRAPHS) {
      expect(PLACEMENT_SENTINELS).not.toContain(other);
      // ICU4X: after the whole block; Intl: after the rewritten block's first ideograph but before its last
      expect(Math.sign(icu4x('\u9FFF', other)), other).toBe(-1);
      expect(Math.sign(intl(String.fromCharCode(map[BLOCK_SIZE - 1] ?? 0), other)), other).toBe(1);
    }
  }, 60_000);

  it('keeps the maps of the locales the bench sorts in (en, fr) and of other locales that do not tailor the ideographs', () => {
    for (const locale of ['en', 'fr', 'de', 'es', 'ru', 'el']) expect(mapFor(locale), locale).toBeDefined();
  }, 120_000);
});

describe('rewriteHan', () => {
  it('replaces the main block’s ideographs only', () => {
    const map = new Uint16Array(BLOCK_SIZE);
    for (let k = 0; k < BLOCK_SIZE; k++) map[k] = MAIN_BLOCK_LAST - k;
    expect(rewriteHan('ab', map)).toBe('ab');
    expect(rewriteHan('\u4E00a\u9FFF\u3400\u{20000}', map)).toBe('\u9FFFa\u4E00\u3400\u{20000}');
  });
});
