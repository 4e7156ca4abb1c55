import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEED_MAX, foldSeed, parseSeed } from '../../cli/seed-value.js';

describe('parseSeed', () => {
  it('keeps a decimal whole number in range as the seed, bounds included', () => {
    expect(parseSeed('0')).toEqual({ seed: 0, given: '0', folded: false });
    expect(parseSeed('4242')).toEqual({ seed: 4242, given: '4242', folded: false });
    expect(parseSeed('2147483647')).toEqual({ seed: SEED_MAX, given: '2147483647', folded: false });
    // as before: leading zeros and surrounding white space are read as the number
    expect(parseSeed(' 007 ')).toEqual({ seed: 7, given: '007', folded: false });
  });

  it('folds a whole number above the range (a CI run ID), a negative one and any text', () => {
    for (const given of ['2147483648', '12345678901', '99999999999999999999999', '-1', '1e9', 'main', 'e15a6b1c0ffee', 'feature/seeds ü'])
      expect(parseSeed(given)).toEqual({ seed: foldSeed(given), given, folded: true });
    expect(parseSeed('12345678901').seed).not.toBe(parseSeed('12345678902').seed);
  });

  it('refuses an empty value, as a usage error that names the likely cause', () => {
    for (const empty of ['', '  ', '\t'])
      expect(() => parseSeed(empty)).toThrow(expect.objectContaining({ code: 'SG_USAGE', message: expect.stringMatching(/--seed is empty \(a CI variable that is not set\?\)/) }));
  });
});

describe('foldSeed', () => {
  it('is 32-bit FNV-1a over the UTF-8 bytes with the top bit cleared (published test vectors)', () => {
    expect(foldSeed('')).toBe(0x811c9dc5 & SEED_MAX);
    expect(foldSeed('a')).toBe(0xe40c292c & SEED_MAX);
    expect(foldSeed('foobar')).toBe(0xbf9cf968 & SEED_MAX);
    // UTF-8 bytes, not UTF-16 code units: "é" is the two bytes c3 a9
    expect(foldSeed('é')).toBe(foldBytes([0xc3, 0xa9]));
  });

  it('gives the same seed for the same text, always in range', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const seed = foldSeed(text);
        expect(foldSeed(text)).toBe(seed);
        expect(Number.isSafeInteger(seed) && seed >= 0 && seed <= SEED_MAX).toBe(true);
        expect(parseSeed(`${text}x`).seed).toBeLessThanOrEqual(SEED_MAX);
      }),
    );
  });
});

/** FNV-1a written out over bytes, to hold foldSeed to the UTF-8 encoding. */
function foldBytes(bytes: number[]): number {
  let h = 0x811c9dc5n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x01000193n) & 0xffffffffn;
  return Number(h & 0x7fffffffn);
}
