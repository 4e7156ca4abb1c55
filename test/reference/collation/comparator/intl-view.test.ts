import { describe, expect, it } from 'vitest';
import { flagsOf, intlView, unitFlags, UNIT_DIGIT, UNIT_IDEOGRAPHIC, UNIT_SPACE } from '../../../../reference/collation/comparator/intl-view.js';

const plain = { numeric: false };
const spaceShifted = { numeric: false, keepsWeightsAfterSpace: (cp: number): boolean => !/\p{M}/u.test(String.fromCodePoint(cp)) };

/** Every code point but the surrogates, as a string. */
function* everyCharacter(): Generator<string> {
  for (let cp = 0; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) yield String.fromCodePoint(cp);
}

describe('intlView', () => {
  it('lists the ideographs of a string in order', () => {
    expect(intlView('ab', plain).ideographs).toBe('');
    expect(intlView('x\u4E2Dy\u{20000}\u2F00', plain).ideographs).toBe('\u4E2D\u{20000}\u2F00');
    expect(intlView('\u3220\u{1F210}', plain).ideographs).toBe('\u3220\u{1F210}');
  });

  it('counts as an ideograph every character whose compatibility decomposition holds one', () => {
    const ideograph = /[\p{Ideographic}\p{Unified_Ideograph}]/u;
    const missed: string[] = [];
    for (const ch of everyCharacter()) {
      if (ideograph.test(ch.normalize('NFKD')) && intlView(ch, plain).ideographs !== ch) missed.push((ch.codePointAt(0) ?? 0).toString(16));
    }
    expect(missed).toEqual([]);
  });

  it('refuses non-ASCII decimal digits under numericOrdering only', () => {
    expect(intlView('1\u0661\u0662', { numeric: true }).refused).toBe(true);
    expect(intlView('1\uFF12', { numeric: true }).refused).toBe(true);
    expect(intlView('12a', { numeric: true }).refused).toBe(false);
    expect(intlView('1\u0661\u0662', plain).refused).toBe(false);
  });

  it('leaves whitespace out under shifted with maxVariable space', () => {
    expect(intlView('a b\u00A0c\td', spaceShifted)).toEqual({ text: 'abcd', ideographs: '', refused: false, rewritten: 'abcd' });
    expect(intlView('a b', plain).text).toBe('a b');
  });

  it('refuses whitespace followed by a character that loses weights after it', () => {
    expect(intlView('a \u0301b', spaceShifted).refused).toBe(true);
    expect(intlView('a  \u0301b', spaceShifted).refused).toBe(true);
    expect(intlView('a\u0301 b', spaceShifted).refused).toBe(false);
  });

  it('refuses every character that is not whitespace but decomposes to some', () => {
    const whitespace = /\p{White_Space}/u;
    const wrong: string[] = [];
    for (const ch of everyCharacter()) {
      const expected = !whitespace.test(ch) && whitespace.test(ch.normalize('NFKD'));
      if (expected !== intlView(ch, spaceShifted).refused) wrong.push((ch.codePointAt(0) ?? 0).toString(16));
    }
    expect(wrong).toEqual([]);
  });

  it('rewrites the main block’s ideographs through the map, and only when every ideograph is in it', () => {
    const map = new Uint16Array(0x9fff - 0x4e00 + 1);
    for (let k = 0; k < map.length; k++) map[k] = 0x9fff - k;
    const withMap = { numeric: false, hanMap: (): Uint16Array => map };
    expect(intlView('a\u4E00b\u9FFF', withMap).rewritten).toBe('a\u9FFFb\u4E00');
    expect(intlView('ab', withMap).rewritten).toBe('ab');
    expect(intlView('\u4E00\u3400', withMap).rewritten).toBeUndefined();
    expect(intlView('\u4E00\u2F00', withMap).rewritten).toBeUndefined();
    expect(intlView('\u4E00', plain).rewritten).toBeUndefined();
    expect(intlView('\u4E00', { numeric: false, hanMap: () => undefined }).rewritten).toBeUndefined();
    expect(intlView('ab', plain).rewritten).toBe('ab');
  });
});

describe('unitFlags', () => {
  const table = unitFlags();
  const numeric = { numeric: true, keepsWeightsAfterSpace: spaceShifted.keepsWeightsAfterSpace };

  it('flags every character whose view is not the character itself, or that holds an ideograph', () => {
    const missed: string[] = [];
    for (const ch of everyCharacter()) {
      const flags = flagsOf(ch, table);
      const view = intlView(ch, numeric);
      if (view.ideographs !== '' && (flags & UNIT_IDEOGRAPHIC) === 0) missed.push(`ideograph ${ch}`);
      if (intlView(ch, { numeric: true }).refused && (flags & UNIT_DIGIT) === 0) missed.push(`digit ${ch}`);
      if ((intlView(ch, spaceShifted).refused || intlView(ch, spaceShifted).text !== ch) && (flags & UNIT_SPACE) === 0) missed.push(`space ${ch}`);
    }
    expect(missed).toEqual([]);
  });

  it('flags a string by its characters, and a whitespace run only through its whitespace', () => {
    expect(flagsOf('abc', table)).toBe(0);
    expect(flagsOf('a b', table)).toBe(UNIT_SPACE);
    expect(flagsOf('a\u0661', table)).toBe(UNIT_DIGIT);
    expect(flagsOf('\u4E00 \u0661', table)).toBe(UNIT_IDEOGRAPHIC | UNIT_SPACE | UNIT_DIGIT);
    // a string without the flags is its own view: whitespace followed by a mark needs the flag on the whitespace
    expect(intlView('a \u0301', spaceShifted).refused).toBe(true);
    expect(flagsOf('a \u0301', table) & UNIT_SPACE).toBe(UNIT_SPACE);
  });
});
