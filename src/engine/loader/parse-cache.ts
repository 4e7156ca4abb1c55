import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { fromRoot } from '../../paths.js';

/**
 * Parsing YAML with positions is most of the cost of loading a large suite (about 0.15 ms per
 * case), so a file that parsed and passed its schema once is remembered by content hash: the
 * data and the location of each top-level item. Any change to the file changes the hash; a
 * change to specgate's schemas changes the key too. Positions deeper than the top-level items
 * are only needed to report errors, and then the file is parsed again in full.
 */
// Bump whenever parsing changes what data a file yields (2: integers beyond 2^53 stay exact;
// such data holds bigint, which JSON cannot store, so those files are simply not cached;
// 3: recorded positions of files loaded whole, cached-yaml.ts; 4: top-level positions as
// [line, column], without the file name repeated in each).
const VERSION = '4';
let dir: string | null | undefined;

function cacheDir(): string | null {
  if (dir !== undefined) return dir;
  if (process.env['SPECGATE_NO_CACHE']) return (dir = null);
  try {
    const d = process.env['SPECGATE_CACHE_DIR'] ?? fromRoot('node_modules', '.cache', 'specgate');
    // never writable by group or others, whatever the umask: the folder may hold code (cachedTextGet)
    mkdirSync(d, { recursive: true, mode: 0o755 });
    dir = d;
  } catch {
    dir = null; // read-only install: parse every time
  }
  return dir;
}

export interface CachedParse {
  data: unknown;
  /** Position (line, column) of each top-level item (case or requirement), in order; the file is the reader's. */
  items: [number, number][];
  /** Positions (line, column) a loader asked for, by JSON of the path (src/engine/loader/cached-yaml.ts). */
  located?: Record<string, [number, number]>;
}

function key(text: string, schema: string): string {
  return createHash('sha256').update(VERSION).update('\0').update(schema).update('\0').update(text).digest('hex');
}

/** What was kept for `text` under `schema` (a parse, unless the caller keeps something else: list-cache.ts), or undefined. */
export function cacheGet<T = CachedParse>(text: string, schema: string): T | undefined {
  const d = cacheDir();
  if (!d) return undefined;
  try {
    return JSON.parse(readFileSync(join(d, `${key(text, schema)}.json`), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function cachePut<T = CachedParse>(text: string, schema: string, value: T): void {
  const d = cacheDir();
  if (!d) return;
  const file = join(d, `${key(text, schema)}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, file);
  } catch {
    // a cache that cannot be written only costs time
    removeQuietly(tmp);
  }
}

/**
 * Whether a folder or file of the cache may hold code this process runs: owned by this user and
 * writable by no one else. Where there are no user ids (Windows), only the install's own
 * `node_modules/.cache` is trusted; a folder named by SPECGATE_CACHE_DIR (say, under a shared
 * temporary folder) is not.
 */
function ownedAndPrivate(st: Stats, folder: string): boolean {
  if (typeof process.getuid !== 'function') {
    const own = fromRoot('node_modules', '.cache');
    const rel = relative(own, resolve(folder));
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  }
  return st.uid === process.getuid() && (st.mode & 0o022) === 0;
}

/** The cache folder when it may hold code (see ownedAndPrivate), else null. */
function codeCacheDir(): string | null {
  const d = cacheDir();
  if (!d) return null;
  try {
    const st = statSync(d);
    return st.isDirectory() && ownedAndPrivate(st, d) ? d : null;
  } catch {
    return null;
  }
}

/** Whether there is a cache folder that may hold code: without one, code is neither read nor written. */
export function codeCacheUsable(): boolean {
  return codeCacheDir() !== null;
}

/**
 * The text kept under `name` in the cache folder (compiled-validators.ts keeps generated code
 * there), or undefined; undefined too unless the folder and the file are this user's and writable
 * by no one else (a symbolic link is not followed), since the text is run as code.
 */
export function cachedTextGet(name: string): string | undefined {
  const d = codeCacheDir();
  if (!d) return undefined;
  let fd: number | undefined;
  try {
    // the file checked is the file read: opened once, then its own status asked
    fd = openSync(join(d, name), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || !ownedAndPrivate(st, d)) return undefined;
    return readFileSync(fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The fields of the JSON object kept under `name` (read as cachedTextGet reads), each still to be
 * checked by the caller; undefined when there is none, or it is not a JSON object.
 */
export function cachedRecordGet(name: string): Record<string, unknown> | undefined {
  const text = cachedTextGet(name);
  if (text === undefined) return undefined;
  try {
    const kept: unknown = JSON.parse(text);
    return typeof kept === 'object' && kept !== null && !Array.isArray(kept) ? (kept as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `text` under `name` in the cache folder, written whole or not at all; only in a folder cachedTextGet trusts. */
export function cachedTextPut(name: string, text: string): void {
  const d = codeCacheDir();
  if (!d) return;
  const file = join(d, name);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o644 });
    renameSync(tmp, file);
  } catch {
    // a cache that cannot be written only costs time; no part-written file is left behind
    removeQuietly(tmp);
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // never written
  }
}
