import { SeededRandom } from '../../../src/engine/seeded-random.js';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The platform's seeded random source: the engine's SeededRandom, so that a seeded platform holds
 * the same offers, leads and postbacks on every run, plus the affiliate records' own shapes.
 */
export class PlatformRandom extends SeededRandom {
  /** `n` characters of [A-Za-z0-9], the first a letter (so its letter case can be flipped). */
  base62(n: number): string {
    let s = BASE62.charAt(Math.floor(this.next() * 52));
    while (s.length < n) s += BASE62.charAt(Math.floor(this.next() * 62));
    return s;
  }

  /** An amount with two decimals in [min, max]. */
  money(min: number, max: number): number {
    return Math.round((min + this.next() * (max - min)) * 100) / 100;
  }
}
