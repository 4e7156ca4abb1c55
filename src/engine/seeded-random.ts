import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { SpecgateError } from '../errors.js';

/**
 * The deterministic random source of reference implementations whose stores or identifiers are
 * seeded: the same seed gives the same records on every run, so a report can name the records it
 * saw. It draws from pure-rand (fast-check's own generator, xoroshiro128+), so the project has one
 * generator and no hand-written copy. One of the engine's public modules (ARCHITECTURE.md, D4 and
 * D6): every suite's reference uses it, and none keeps a copy.
 */
export class SeededRandom {
  private readonly rng: RandomGenerator;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed | 0);
  }

  /** A number in [0, 1). */
  next(): number {
    return uniformFloat64(this.rng);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return uniformInt(this.rng, min, max);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One item of a list that is not empty. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new SpecgateError('SG_INTERNAL', 'cannot pick from an empty list');
    return item;
  }

  /** `n` distinct items in their original order (fewer when the list is shorter). */
  some<T>(items: readonly T[], n: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(n, items.length)) chosen.add(Math.floor(this.next() * items.length));
    return items.filter((_, i) => chosen.has(i));
  }

  /** `length` characters drawn from `alphabet` (identifiers, codes, tokens). */
  text(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)] ?? '';
    return out;
  }

  /** `n` lowercase hexadecimal digits (hashes, commit SHAs). */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
}
