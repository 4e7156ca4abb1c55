/**
 * Sorting and projecting. A sort compares strings with the operation's collation — the same one
 * its filter uses (part F, Endpoints 2: one collation per operation).
 */
import type { Collator } from '../types.js';
import { getPath, setPath, splitPath, valuesAtPath } from './paths.js';
import { refuse } from './refusal.js';
import { compareValues, isDoc, type Doc, type StringOrder } from './values.js';

export interface SortKey {
  path: string;
  direction: 1 | -1;
}

export function parseSort(sort: unknown, where: string): SortKey[] {
  if (sort === undefined || sort === null) return [];
  if (!isDoc(sort)) refuse('TypeMismatch', `${where} must be a document such as {name: 1, age: -1}`);
  return Object.entries(sort).map(([path, d]) => {
    if (d !== 1 && d !== -1) refuse('BadValue', `${where}: the direction of "${path}" must be 1 or -1`);
    return { path, direction: d };
  });
}

/** The value a document sorts by on one key: an array sorts by its least (ascending) or greatest (descending) element. */
function sortValue(doc: Doc, key: SortKey, strings: StringOrder): unknown {
  const flat: unknown[] = [];
  for (const v of valuesAtPath(doc, splitPath(key.path))) {
    if (Array.isArray(v)) flat.push(...(v.length === 0 ? [undefined] : v));
    else flat.push(v);
  }
  if (flat.length === 0) return null;
  return flat.reduce((best, v) => {
    const c = compareValues(v, best, strings);
    return (key.direction === 1 ? c < 0 : c > 0) ? v : best;
  });
}

/** A stable sort; `strings` is the operation's collator order. */
export function sortDocs(docs: Doc[], keys: readonly SortKey[], strings: StringOrder): Doc[] {
  if (keys.length === 0) return docs;
  const decorated = docs.map((doc, i) => ({ doc, i, values: keys.map((k) => sortValue(doc, k, strings)) }));
  decorated.sort((a, b) => {
    for (const [j, k] of keys.entries()) {
      const c = compareValues(a.values[j], b.values[j], strings);
      if (c !== 0) return c * k.direction;
    }
    return a.i - b.i;
  });
  return decorated.map((d) => d.doc);
}

export function collatorOrder(collator: Collator): StringOrder {
  return (a, b) => collator.compare(a, b);
}

export interface Projection {
  mode: 'include' | 'exclude';
  paths: string[];
  keepId: boolean;
}

export function parseProjection(p: unknown, where: string): Projection | undefined {
  if (p === undefined || p === null) return undefined;
  if (!isDoc(p)) refuse('TypeMismatch', `${where} must be a document such as {name: 1, _id: 0}`);
  let keepId = true;
  const include: string[] = [];
  const exclude: string[] = [];
  for (const [path, v] of Object.entries(p)) {
    const on = v === 1 || v === true ? true : v === 0 || v === false ? false : refuse('BadValue', `${where}: "${path}" must be 1 or 0`);
    if (path === '_id') keepId = on;
    else (on ? include : exclude).push(path);
  }
  if (include.length > 0 && exclude.length > 0) refuse('BadValue', `${where} cannot mix inclusion and exclusion (except for _id)`);
  if (include.length > 0) return { mode: 'include', paths: include, keepId };
  return { mode: 'exclude', paths: exclude, keepId };
}

function unsetPath(doc: Doc, path: string): void {
  const segs = splitPath(path);
  let cur: unknown = doc;
  for (const seg of segs.slice(0, -1)) cur = isDoc(cur) ? cur[seg] : undefined;
  if (isDoc(cur)) delete cur[segs[segs.length - 1] ?? path];
}

export function project(doc: Doc, p: Projection | undefined): Doc {
  if (p === undefined) return doc;
  if (p.mode === 'include') {
    const out: Doc = {};
    if (p.keepId && Object.hasOwn(doc, '_id')) out._id = doc._id;
    for (const path of p.paths) {
      const got = getPath(doc, path);
      if (got.found) setPath(out, path, got.value);
    }
    return out;
  }
  const out = structuredClone(doc);
  if (!p.keepId) delete out._id;
  for (const path of p.paths) unsetPath(out, path);
  return out;
}
