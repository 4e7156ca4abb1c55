import { cacheGet, cachePut } from '../src/engine/loader/parse-cache.js';
import { codeStamp, filesStamp } from '../src/engine/loader/input-stamp.js';
import type { SuiteListing } from './suite-listing.js';

/**
 * `specgate list` without flags that select, of built-in suites: what it shows of each suite
 * is derived by loading the suites completely (their modules, every case checked), which costs
 * far more than starting Node.js. So the listings of a complete load are kept in the parse cache
 * (parse-cache.ts), under what they were derived from: the suites loaded together (a suite's
 * names resolve among them), the folder names are shown from (the working directory), the code
 * (input-stamp.ts codeStamp) and a stamp of every file in the suites' folders, taken before the
 * load. A later listing of the same suites shows them from there while every stamp is the same;
 * any change to a suite's files or to the code makes it load them again (and so find what is
 * wrong with them, as before).
 */

// Bump whenever what a listing holds, or how it is derived, changes.
const VERSION = '1';

interface KeptListings {
  /** The suites' folders and the stamp of their files when they were loaded. */
  dirs: string[];
  stamp: string;
  listings: SuiteListing[];
}

function keyOf(suites: readonly string[]): string {
  return `${VERSION}\0${process.cwd()}\0${suites.join(',')}\0${codeStamp()}`;
}

/** The stamp of the suites' folders now, to keep with their listings (taken before they are loaded). */
export function stampOf(dirs: readonly string[]): string {
  return filesStamp(dirs);
}

/**
 * The listings kept for exactly these suites (loaded together, named in the order the built-in
 * suites are listed), when nothing they were derived from has changed since; else undefined.
 */
export function keptListings(suites: readonly string[]): SuiteListing[] | undefined {
  const kept = cacheGet<KeptListings>(keyOf(suites), 'listing');
  if (!kept || !Array.isArray(kept.dirs) || !Array.isArray(kept.listings) || typeof kept.stamp !== 'string') return undefined;
  if (kept.listings.map((l) => l.name).join(',') !== suites.join(',')) return undefined;
  return stampOf(kept.dirs) === kept.stamp ? kept.listings : undefined;
}

/** Keeps the listings of a complete load of `suites` (in that order), whose folders `dirs` had `stamp` before it. */
export function keepListings(suites: readonly string[], dirs: readonly string[], stamp: string, listings: readonly SuiteListing[]): void {
  cachePut<KeptListings>(keyOf(suites), 'listing', { dirs: [...dirs], stamp, listings: [...listings] });
}
