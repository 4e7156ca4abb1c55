import { SpecgateError } from '../src/errors.js';
import { quote } from './replay.js';

/** Seeds are 31-bit (fast-check's range, and what specgate prints). */
export const SEED_MAX = 0x7fffffff;

/** What `--seed` was given and the seed the run uses. */
export interface SeedValue {
  /** The seed the run uses, from 0 to {@link SEED_MAX}: what reports and replay commands carry. */
  seed: number;
  /** The value as given, without surrounding white space. */
  given: string;
  /** Whether `given` was not a seed in range and was folded into one. */
  folded: boolean;
}

/**
 * `--seed`: any value a CI system hands out. A decimal whole number from 0 to {@link SEED_MAX}
 * is the seed itself (replay commands print one); anything else (a run ID above the range, a
 * negative number, a commit SHA, a branch name) is folded by {@link foldSeed}, so every shard of
 * one pipeline, given the same text, runs on the same seed. Empty is refused: it is nearly
 * always a CI variable that is not set.
 */
export function parseSeed(value: string): SeedValue {
  const given = value.trim();
  if (given === '') throw new SpecgateError('SG_USAGE', '--seed is empty (a CI variable that is not set?): give a whole number, or any text such as a run ID or a commit SHA, which is folded into a seed');
  if (/^\d+$/.test(given)) {
    const n = Number(given);
    if (n <= SEED_MAX) return { seed: n, given, folded: false };
  }
  return { seed: foldSeed(given), given, folded: true };
}

/** The line a run or search prints once when it folded its seed (nothing when it did not). */
export function foldedNote(v: SeedValue | undefined): string | undefined {
  return v?.folded ? `seed ${quote(v.given)} folded to ${v.seed}` : undefined;
}

/**
 * The 32-bit FNV-1a hash of the text's UTF-8 bytes, its top bit cleared: a seed from 0 to
 * {@link SEED_MAX}, the same for the same text on every machine and Node.js version.
 */
export function foldSeed(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & SEED_MAX;
}
