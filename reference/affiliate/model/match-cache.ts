import type { AffiliateData } from './data.js';

/**
 * The records a list query matched, kept for the same query of the same records: a walk reads a
 * list page by page, each page asking for the same matches, and the suite reads the same windows
 * in many cases. The records held change only by a registration adding a lead, so an entry holds
 * while the lists are as long as when it was made. Bounded: emptied when full.
 */
const cached = new WeakMap<AffiliateData, Map<string, { version: string; matches: readonly unknown[] }>>();
const MAX_ENTRIES = 200;

/** What the lists hold, as far as a query can tell: their lengths (records are only ever added). */
function versionOf(data: AffiliateData): string {
  return `${data.leads.length}/${data.conversions.length}/${data.offers.length}/${data.postbacks.length}`;
}

/** The matches of the query named by `key` (its kind, window and filters, not its page), computed by `match` when not kept. */
export function cachedMatches<T>(data: AffiliateData, key: string, match: () => T[]): readonly T[] {
  let entries = cached.get(data);
  if (!entries) {
    entries = new Map();
    cached.set(data, entries);
  }
  const version = versionOf(data);
  const hit = entries.get(key);
  if (hit && hit.version === version) return hit.matches as readonly T[];
  const matches = match();
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(key, { version, matches });
  return matches;
}
