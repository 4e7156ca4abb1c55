import { describe, expect, it } from 'vitest';
import { intlView } from '../../../../reference/collation/comparator/intl-view.js';

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
    expect(intlView('a b\u00A0c\td', spaceShifted)).toEqual({ text: 'abcd', ideographs: '', refused: false });
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
});
