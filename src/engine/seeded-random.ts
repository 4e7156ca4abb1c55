import { SpecgateError } from '../errors.js';

/**
 * A small deterministic random source (mulberry32) for reference implementations whose stores are
 * seeded: the same seed gives the same records on every run, so a report can name the records it
 * saw. One of the engine's public modules (ARCHITECTURE.md, D4 and D6): every suite's reference
 * may use it, and none keeps a copy.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
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

  /** `n` lowercase hexadecimal digits (hashes, commit SHAs). */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
}
