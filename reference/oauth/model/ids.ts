/**
 * Deterministic identifiers for the reference platform. A seeded generator keeps runs
 * reproducible (the same seed gives the same codes and tokens), which matters when a failure
 * report quotes an exchange. These are test credentials, never secrets.
 */
import { SeededRandom } from '../../../src/engine/seeded-random.js';

export interface IdSource {
  /** `length` characters drawn from `alphabet`. */
  next(alphabet: string, length: number): string;
}

export const HEX = '0123456789abcdef';
export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Letters a person can read back without confusing them (no vowels, no 0/O, 1/I). */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** Identifiers drawn from the engine's seeded source (pure-rand), one character at a time. */
export function seededIds(seed: number): IdSource {
  const random = new SeededRandom(seed);
  return { next: (alphabet, length) => random.text(alphabet, length) };
}

/** device_code: 40 characters (B, Resources, device authorization response; B, Limits). */
export function newDeviceCode(ids: IdSource): string {
  return ids.next(HEX, 40);
}

/** user_code: 8 characters with a hyphen in the middle, i.e. `XXXX-XXXX` (B, Limits). */
export function newUserCode(ids: IdSource): string {
  return `${ids.next(USER_CODE_ALPHABET, 4)}-${ids.next(USER_CODE_ALPHABET, 4)}`;
}

/** Temporary web-flow code; its shape is not specified, only its lifetime. */
export function newAuthorizationCode(ids: IdSource): string {
  return ids.next(HEX, 20);
}

/** Access tokens are opaque (B, Resources: "the token, written <ACCESS_TOKEN>"). */
export function newAccessToken(ids: IdSource): string {
  return `sgt_${ids.next(ALNUM, 36)}`;
}
