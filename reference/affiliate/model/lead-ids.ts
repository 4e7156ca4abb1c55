import type { PlatformRandom } from './random.js';

/** Length of a lead's ID (`leadRequest.ID` = `leadRequestIDEncoded`). */
export const LEAD_ID_LENGTH = 12;

/** The same text with the letter case of every letter flipped. */
export function flipCase(id: string): string {
  return [...id].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/**
 * Hands out lead IDs: unique as exact strings. IDs are case-sensitive (E resources:
 * "unique per lead, case sensitive"), so two IDs may differ in letter case only; the seed
 * makes one such pair on purpose (see {@link LeadIds.twinOf}).
 */
export class LeadIds {
  private readonly used = new Set<string>();

  constructor(private readonly rng: PlatformRandom) {}

  next(): string {
    for (;;) {
      const id = this.rng.base62(LEAD_ID_LENGTH);
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }

  /** A new ID equal to `id` but for letter case (undefined if that one is taken already). */
  twinOf(id: string): string | undefined {
    const twin = flipCase(id);
    if (twin === id || this.used.has(twin)) return undefined;
    this.used.add(twin);
    return twin;
  }
}
