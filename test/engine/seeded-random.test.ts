import { describe, expect, it } from 'vitest';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { SeededRandom } from '../../src/engine/seeded-random.js';
import { SpecgateError } from '../../src/errors.js';

describe('the seeded random source of the reference implementations', () => {
  it('draws the same values from the same seed, and the values pure-rand draws from it', () => {
    const r = new SeededRandom(2002);
    const direct = xoroshiro128plus(2002);
    // the same generator as fast-check's, not a copy: a report's seed means the same thing to both
    expect(r.next()).toBe(uniformFloat64(direct));
    expect(r.int(1, 6)).toBe(uniformInt(direct, 1, 6));
    const a = new SeededRandom(7);
    const b = new SeededRandom(7);
    expect(Array.from({ length: 50 }, () => a.next())).toEqual(Array.from({ length: 50 }, () => b.next()));
    expect(new SeededRandom(8).next()).not.toBe(new SeededRandom(7).next());
  });

  it('keeps every draw within its bounds', () => {
    const r = new SeededRandom(1);
    for (let i = 0; i < 2000; i++) {
      const x = r.next();
      expect(x >= 0 && x < 1).toBe(true);
      const n = r.int(-3, 3);
      expect(Number.isInteger(n) && n >= -3 && n <= 3).toBe(true);
    }
    expect(r.hex(13)).toMatch(/^[0-9a-f]{13}$/);
    expect(r.text('XYZ', 40)).toMatch(/^[XYZ]{40}$/);
    // every character of an alphabet is drawn, the last one included
    expect(new Set(r.text('ab', 200))).toEqual(new Set(['a', 'b']));
  });

  it('picks from a list, and chooses distinct items in their order', () => {
    const r = new SeededRandom(3);
    const items = ['a', 'b', 'c', 'd', 'e'];
    expect(items).toContain(r.pick(items));
    const some = r.some(items, 3);
    expect(some).toHaveLength(3);
    expect(some).toEqual(items.filter((x) => some.includes(x)));
    expect(r.some(items, 9)).toEqual(items);
    expect(() => r.pick([])).toThrow(SpecgateError);
  });
});
