/**
 * Identifiers the reference server hands out: client IDs and secrets, codes, tokens, session
 * IDs. A seeded generator keeps runs reproducible (the same seed gives the same values), so a
 * report that quotes an exchange can be replayed. These are test credentials, never secrets.
 */
import { SeededRandom } from '../../../src/engine/seeded-random.js';

export interface IdSource {
  /** `length` characters drawn from `alphabet`. */
  next(alphabet: string, length: number): string;
}

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const HEX = '0123456789abcdef';

/** The seed a model uses when none is given. */
export const DEFAULT_SEED = 0x00c7a0;

/** Identifiers drawn from the engine's seeded source (pure-rand): unique for tests, not protecting anything. */
export function seededIds(seed: number = DEFAULT_SEED): IdSource {
  const random = new SeededRandom(seed);
  return { next: (alphabet, length) => random.text(alphabet, length) };
}
