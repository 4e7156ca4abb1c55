import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    mkdirSync(d, { recursive: true });
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

export function cacheGet(text: string, schema: string): CachedParse | undefined {
  const d = cacheDir();
  if (!d) return undefined;
  try {
    return JSON.parse(readFileSync(join(d, `${key(text, schema)}.json`), 'utf8')) as CachedParse;
  } catch {
    return undefined;
  }
}

export function cachePut(text: string, schema: string, value: CachedParse): void {
  const d = cacheDir();
  if (!d) return;
  try {
    const file = join(d, `${key(text, schema)}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, file);
  } catch {
    // a cache that cannot be written only costs time
  }
}

/** The text kept under `name` in the cache folder (compiled-validators.ts keeps generated code there), or undefined. */
export function cachedTextGet(name: string): string | undefined {
  const d = cacheDir();
  if (!d) return undefined;
  try {
    return readFileSync(join(d, name), 'utf8');
  } catch {
    return undefined;
  }
}

/** Keeps `text` under `name` in the cache folder, written whole or not at all. */
export function cachedTextPut(name: string, text: string): void {
  const d = cacheDir();
  if (!d) return;
  try {
    const file = join(d, name);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch {
    // a cache that cannot be written only costs time
  }
}
