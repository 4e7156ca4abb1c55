import { createHash } from 'node:crypto';
import { cachedRecordGet, cachedTextPut } from '../src/engine/loader/parse-cache.js';
import { codeStamp, filesStamp } from '../src/engine/loader/input-stamp.js';
import type { SpecgateErrorCode } from '../src/errors.js';

/**
 * What `specgate validate` found of files inside built-in suites' folders, kept as list-cache.ts
 * keeps listings: under the suites the files belong to, in the files' order (a suite's schema
 * files are known to the suites checked after it), the working directory (messages name files
 * from it) and the code (input-stamp.ts codeStamp), with a stamp of every file in those suites'
 * folders taken before the check. While every stamp is the same, a validation of files of the
 * same suites in the same order prints what was found then, and loads nothing that checks a
 * suite; any change to a suite's files or to the code makes it check them again. What is printed
 * is read only from a cache folder, and a file in it, that are this user's and writable by no
 * one else (parse-cache.ts cachedTextGet), and only when it is found text in every field, holding
 * no control character but newline and tab; anything else is a miss.
 */

// Bump whenever what is kept, or how it is derived, changes.
const VERSION = '1';

/** One problem found: its code and message. */
export type Found = [code: SpecgateErrorCode, message: string];

/** The codes of what checking a suite's files finds (all exit 2): anything else is not kept. */
const KEPT_CODES: ReadonlySet<string> = new Set<SpecgateErrorCode>(['SG_USAGE', 'SG_CONFIG', 'SG_SUITE_SYNTAX', 'SG_SUITE_SCHEMA', 'SG_SUITE_UNKNOWN', 'SG_EXPRESSION']);

interface KeptOutcomes {
  dirs: string[];
  stamp: string;
  /** Per file, in order: the problems found (none: the file is ok). */
  found: Found[][];
}

function fileOf(owners: readonly string[]): string {
  const key = `${VERSION}\0${process.cwd()}\0${owners.join(',')}\0${codeStamp()}`;
  return `validate-${createHash('sha256').update(key).digest('hex')}.json`;
}

/** The stamp of the suites' folders, to keep with what is found (taken before the check). */
export function outcomesStamp(dirs: readonly string[]): string {
  return filesStamp(dirs);
}

/**
 * What was found of files owned by `owners` (the suite of each file, in order) when nothing it
 * was derived from has changed since; else undefined.
 */
export function keptOutcomes(owners: readonly string[]): Found[][] | undefined {
  const kept = cachedRecordGet(fileOf(owners));
  if (!kept) return undefined;
  const { dirs, stamp, found } = kept as Partial<Record<keyof KeptOutcomes, unknown>>;
  if (!Array.isArray(dirs) || !dirs.every((d) => typeof d === 'string') || typeof stamp !== 'string') return undefined;
  if (!isFoundPerFile(found) || found.length !== owners.length) return undefined;
  return outcomesStamp(dirs) === stamp ? found : undefined;
}

/** Keeps what was found of files owned by `owners`, whose suites' folders `dirs` had `stamp` before the check; text a reader would refuse is not kept. */
export function keepOutcomes(owners: readonly string[], dirs: readonly string[], stamp: string, found: readonly Found[][]): void {
  if (!isFoundPerFile(found) || found.length !== owners.length) return;
  const kept: KeptOutcomes = { dirs: [...dirs], stamp, found: found.map((f) => [...f]) };
  cachedTextPut(fileOf(owners), JSON.stringify(kept));
}

// C0 controls but tab and newline, DEL and the C1 controls: kept text is printed as it is
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function isFoundPerFile(x: unknown): x is Found[][] {
  const isText = (t: unknown): t is string => typeof t === 'string' && !CONTROL.test(t);
  return Array.isArray(x) && x.every((f) => Array.isArray(f) && f.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && KEPT_CODES.has(p[0]) && isText(p[1])));
}
