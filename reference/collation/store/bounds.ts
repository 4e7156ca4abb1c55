/**
 * Index bounds as explain prints them: one list of intervals per key field, `"[MinKey, MaxKey]"`
 * for a field the scan does not narrow. Strings are printed as the query wrote them (a real
 * server prints a collated index's bounds as collation keys, which are bytes, not text).
 */
import type { Condition } from './filter.js';
import { compareValues, typeRank, type StringOrder } from './values.js';

interface Bound {
  text: string;
  inclusive: boolean;
}

export interface Interval {
  lo: Bound;
  hi: Bound;
}

export const FULL_RANGE = '[MinKey, MaxKey]';

export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The ends of the range of one type, for a range open on one side ("type bracketing"). */
function typeEnds(v: unknown): { lo: Bound; hi: Bound } {
  switch (typeRank(v)) {
    case 2:
      return { lo: { text: '-inf.0', inclusive: true }, hi: { text: 'inf.0', inclusive: true } };
    case 3:
      return { lo: { text: '""', inclusive: true }, hi: { text: '{}', inclusive: false } };
    case 4:
      return { lo: { text: '{}', inclusive: true }, hi: { text: '[]', inclusive: false } };
    case 8:
      return { lo: { text: 'false', inclusive: true }, hi: { text: 'true', inclusive: true } };
    default:
      return { lo: { text: 'MinKey', inclusive: true }, hi: { text: 'MaxKey', inclusive: true } };
  }
}

const point = (v: unknown): Interval => ({ lo: { text: formatValue(v), inclusive: true }, hi: { text: formatValue(v), inclusive: true } });

/** Conditions that can narrow an index scan: equality, `$in` and ranges on scalar values. */
export function isBoundable(c: Condition): boolean {
  if (c.op === '$ne') return false;
  if (c.op === '$in') return (c.value as unknown[]).every((v) => !Array.isArray(v));
  return !Array.isArray(c.value);
}

/**
 * The intervals the boundable conditions of one field give, and which conditions they express
 * exactly (the others stay in the FETCH filter).
 */
export function intervalsFor(conds: readonly Condition[], strings: StringOrder): { intervals: Interval[]; used: Condition[] } {
  const eq = conds.find((c) => c.op === '$eq');
  if (eq !== undefined) return { intervals: [point(eq.value)], used: [eq] };
  const inList = conds.find((c) => c.op === '$in');
  if (inList !== undefined) {
    const values = [...(inList.value as unknown[])].sort((a, b) => compareValues(a, b, strings));
    const unique = values.filter((v, i) => i === 0 || compareValues(values[i - 1], v, strings) !== 0);
    return { intervals: unique.map(point), used: [inList] };
  }
  const lower = conds.filter((c) => c.op === '$gt' || c.op === '$gte').at(-1);
  const upper = conds.filter((c) => c.op === '$lt' || c.op === '$lte').at(-1);
  const ends = typeEnds((lower ?? upper)?.value);
  const lo = lower === undefined ? ends.lo : { text: formatValue(lower.value), inclusive: lower.op === '$gte' };
  const hi = upper === undefined ? ends.hi : { text: formatValue(upper.value), inclusive: upper.op === '$lte' };
  return { intervals: [{ lo, hi }], used: [lower, upper].filter((c): c is Condition => c !== undefined) };
}

export function formatIntervals(intervals: readonly Interval[], direction: 1 | -1): string[] {
  const ordered = direction === 1 ? intervals : [...intervals].reverse().map((i) => ({ lo: i.hi, hi: i.lo }));
  return ordered.map((i) => `${i.lo.inclusive ? '[' : '('}${i.lo.text}, ${i.hi.text}${i.hi.inclusive ? ']' : ')'}`);
}
