import { createHash } from 'node:crypto';
import { cachedRecordGet, cachedTextPut } from '../src/engine/loader/parse-cache.js';
import { codeStamp, filesStamp } from '../src/engine/loader/input-stamp.js';
import { isListing } from './listing-shape.js';
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
 * wrong with them, as before). What is printed is read only from a cache folder, and a file in
 * it, that are this user's and writable by no one else (as generated code is,
 * parse-cache.ts cachedTextGet), and only when it is a listing in every field (listing-shape.ts);
 * anything else is a miss, and the suites are loaded.
 */

// Bump whenever what a listing holds, or how it is derived, changes (2: kept only in a private folder, checked when read).
const VERSION = '2';

interface KeptListings {
  /** The suites' folders and the stamp of their files when they were loaded. */
  dirs: string[];
  stamp: string;
  listings: SuiteListing[];
}

/** The name of the file the listings of `suites` are kept in. */
function fileOf(suites: readonly string[]): string {
  const key = `${VERSION}\0${process.cwd()}\0${suites.join(',')}\0${codeStamp()}`;
  return `listing-${createHash('sha256').update(key).digest('hex')}.json`;
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
  const kept = cachedRecordGet(fileOf(suites));
  if (!kept) return undefined;
  const { dirs, stamp, listings } = kept as Partial<Record<keyof KeptListings, unknown>>;
  if (!Array.isArray(dirs) || !dirs.every((d) => typeof d === 'string') || typeof stamp !== 'string') return undefined;
  if (!Array.isArray(listings) || !listings.every(isListing)) return undefined;
  if (listings.map((l) => l.name).join(',') !== suites.join(',')) return undefined;
  return stampOf(dirs) === stamp ? listings : undefined;
}

/** Keeps the listings of a complete load of `suites` (in that order), whose folders `dirs` had `stamp` before it; only in a folder keptListings reads. */
export function keepListings(suites: readonly string[], dirs: readonly string[], stamp: string, listings: readonly SuiteListing[]): void {
  const kept: KeptListings = { dirs: [...dirs], stamp, listings: [...listings] };
  cachedTextPut(fileOf(suites), JSON.stringify(kept));
}
