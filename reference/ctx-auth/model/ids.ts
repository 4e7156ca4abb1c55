/**
 * Identifiers the reference server hands out: client IDs and secrets, codes, tokens, session
 * IDs. A seeded generator keeps runs reproducible (the same seed gives the same values), so a
 * report that quotes an exchange can be replayed. These are test credentials, never secrets.
 */
export interface IdSource {
  /** `length` characters drawn from `alphabet`. */
  next(alphabet: string, length: number): string;
}

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const HEX = '0123456789abcdef';

/** The seed a model uses when none is given. */
export const DEFAULT_SEED = 0x00c7a0;

/** A small 32-bit mixing generator: enough to make test identifiers unique, not to protect anything. */
export function seededIds(seed: number = DEFAULT_SEED): IdSource {
  let state = seed >>> 0;
  const nextUint = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 16), 0x85ebca6b);
    t = Math.imul(t ^ (t >>> 13), 0xc2b2ae35);
    return (t ^ (t >>> 16)) >>> 0;
  };
  return {
    next(alphabet: string, length: number): string {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[nextUint() % alphabet.length] ?? '';
      return out;
    },
  };
}
