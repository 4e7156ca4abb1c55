/**
 * Values and their order. Across types the usual document-database order holds (null < numbers <
 * strings < embedded documents < arrays < booleans); only strings are compared with a collation.
 * Field names inside embedded documents are always compared byte for byte (part F, "Collation and
 * indexes" 5).
 */
export type Doc = Record<string, unknown>;

/** Compares two strings; a collator's `compare`, or code point order for keys. */
export type StringOrder = (a: string, b: string) => number;

export function isDoc(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Binary order of UTF-8 bytes, which is code point order (not UTF-16 unit order). */
export function codePointCompare(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done === true) return y.done === true ? 0 : -1;
    if (y.done === true) return 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** Rank of a value's type in the cross-type order; a missing value ranks as null. */
export function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 1;
  if (typeof v === 'number' || typeof v === 'bigint') return 2;
  if (typeof v === 'string') return 3;
  if (Array.isArray(v)) return 5;
  if (isDoc(v)) return 4;
  if (typeof v === 'boolean') return 8;
  return 9;
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

export function compareValues(a: unknown, b: unknown, strings: StringOrder): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return sign(strings(a, b));
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i], strings);
      if (c !== 0) return c;
    }
    return sign(a.length - b.length);
  }
  if (isDoc(a) && isDoc(b)) {
    const ea = Object.entries(a);
    const eb = Object.entries(b);
    for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
      const [ka, va] = ea[i] ?? ['', null];
      const [kb, vb] = eb[i] ?? ['', null];
      const byType = sign(typeRank(va) - typeRank(vb));
      if (byType !== 0) return byType;
      const byKey = codePointCompare(ka, kb);
      if (byKey !== 0) return byKey;
      const byValue = compareValues(va, vb, strings);
      if (byValue !== 0) return byValue;
    }
    return sign(ea.length - eb.length);
  }
  return 0;
}

/** Whether a value is or holds a string: such a comparison depends on the collation. */
export function holdsString(v: unknown): boolean {
  if (typeof v === 'string') return true;
  if (Array.isArray(v)) return v.some(holdsString);
  if (isDoc(v)) return Object.values(v).some(holdsString);
  return false;
}

/** A deep copy, so nothing a caller holds aliases what the store keeps. */
export function clone<T>(v: T): T {
  return structuredClone(v);
}

/** Byte-for-byte equality (used for "was this document modified"). */
export function sameValue(a: unknown, b: unknown): boolean {
  return typeRank(a) === typeRank(b) && compareValues(a, b, codePointCompare) === 0 && JSON.stringify(a) === JSON.stringify(b);
}
