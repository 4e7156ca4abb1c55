/**
 * Dotted paths into documents. Field names are matched byte for byte whatever the collation
 * (part F, "Collation and indexes" 5); the key-equality function is a parameter only so that a
 * planted fault can break that rule.
 */
import { isDoc, type Doc } from './values.js';

export type KeyEquals = (wanted: string, actual: string) => boolean;

export const binaryKeys: KeyEquals = (wanted, actual) => wanted === actual;

function field(doc: Doc, key: string, keys: KeyEquals): { found: boolean; value: unknown } {
  if (keys === binaryKeys) return Object.hasOwn(doc, key) ? { found: true, value: doc[key] } : { found: false, value: undefined };
  for (const [k, v] of Object.entries(doc)) if (keys(key, k)) return { found: true, value: v };
  return { found: false, value: undefined };
}

/**
 * Every value a path reaches: through embedded documents, and through arrays element by element
 * (a numeric segment also picks an array element). A path that reaches nothing gives [].
 */
export function valuesAtPath(v: unknown, segments: readonly string[], keys: KeyEquals = binaryKeys): unknown[] {
  if (segments.length === 0) return [v];
  const [head, ...rest] = segments as [string, ...string[]];
  if (isDoc(v)) {
    const f = field(v, head, keys);
    return f.found ? valuesAtPath(f.value, rest, keys) : [];
  }
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    if (/^\d+$/.test(head) && Number(head) < v.length) out.push(...valuesAtPath(v[Number(head)], rest, keys));
    for (const el of v) if (isDoc(el)) out.push(...valuesAtPath(el, segments, keys));
    return out;
  }
  return [];
}

export function splitPath(path: string): string[] {
  return path.split('.');
}

/** The one value a path names without walking arrays (for projections and index keys). */
export function getPath(doc: Doc, path: string): { found: boolean; value: unknown } {
  let cur: unknown = doc;
  for (const seg of splitPath(path)) {
    if (!isDoc(cur) || !Object.hasOwn(cur, seg)) return { found: false, value: undefined };
    cur = cur[seg];
  }
  return { found: true, value: cur };
}

/** Sets a dotted path, creating embedded documents on the way. */
export function setPath(doc: Doc, path: string, value: unknown): void {
  const segs = splitPath(path);
  let cur: Doc = doc;
  for (const seg of segs.slice(0, -1)) {
    const next = cur[seg];
    if (isDoc(next)) cur = next;
    else {
      const made: Doc = {};
      cur[seg] = made;
      cur = made;
    }
  }
  cur[segs[segs.length - 1] ?? path] = value;
}
