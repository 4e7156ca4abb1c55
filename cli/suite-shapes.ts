import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import { cachedRecordGet, cachedTextPut } from '../src/engine/loader/parse-cache.js';
import { codeStamp, filesStamp } from '../src/engine/loader/input-stamp.js';
import { isShape, type SuiteShape } from '../src/engine/loader/suite-shape.js';

/**
 * The shapes of suite modules (suite-shape.ts) kept from an earlier load of their code, so that
 * `specgate validate` checks a suite's files without loading its code again. A shape is derived
 * from the code (input-stamp.ts codeStamp, part of the file's name) and from whatever the
 * module reads of its folder when it is imported (a schema file, say): so it is kept with a
 * stamp of every file of the suite's folder but those the loader itself reads and checks on
 * every validation (the catalog, suite.yaml, api.yaml, trace.yaml and the case files), taken
 * before the module was imported. Editing a case file keeps the shape; any other change to the
 * folder or to the code makes validate load the code again. As with kept listings
 * (list-cache.ts), a shape is read only from a cache folder, and a file in it, that are this
 * user's and writable by no one else, and only when it is a shape in every field (isShape);
 * anything else is a miss, and the suite's code is loaded.
 */

// Bump whenever what a shape holds, or how it is derived, changes.
const VERSION = '1';

/** The files of a suite's folder the loader reads itself: they are checked on every validation, not stamped. */
const READ_BY_LOADER = new Set(['requirements.yaml', 'suite.yaml', 'api.yaml', 'trace.yaml']);

interface KeptShape {
  stamp: string;
  shape: SuiteShape;
}

function fileOf(name: string): string {
  return `suite-shape-${createHash('sha256').update(`${VERSION}\0${name}\0${codeStamp()}`).digest('hex')}.json`;
}

/** The stamp of a suite's folder a shape depends on (see the top of this file); taken before its module is imported. */
export function shapeStamp(dir: string): string {
  return filesStamp([dir], (name, path) => {
    const [first, ...rest] = relative(dir, path).split(sep);
    if (rest.length === 0) return !READ_BY_LOADER.has(first as string);
    return !(first === 'cases' && /\.ya?ml$/.test(name));
  });
}

/** The shape kept for suite `name` in `dir`, when the code and the folder's stamped files are as they were; else undefined. */
export function keptShape(name: string, dir: string): SuiteShape | undefined {
  const kept = cachedRecordGet(fileOf(name));
  if (!kept) return undefined;
  const { stamp, shape } = kept as Partial<Record<keyof KeptShape, unknown>>;
  if (typeof stamp !== 'string' || !isShape(shape) || shape.name !== name || shape.dir !== dir) return undefined;
  return shapeStamp(dir) === stamp ? shape : undefined;
}

/** Keeps the shape of a module loaded while its folder had `stamp`; only in a folder keptShape reads. */
export function keepShape(shape: SuiteShape, stamp: string): void {
  const kept: KeptShape = { stamp, shape };
  cachedTextPut(fileOf(shape.name), JSON.stringify(kept));
}
