/**
 * Filters: equality, `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, implicit AND (and `$and`).
 * A string comparison uses the operation's collation; a field name is matched byte for byte.
 */
import type { Collator } from '../types.js';
import { binaryKeys, splitPath, valuesAtPath, type KeyEquals } from './paths.js';
import { refuse } from './refusal.js';
import { compareValues, isDoc, typeRank, type Doc } from './values.js';

export const COMPARISONS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in'] as const;
export type ComparisonOp = (typeof COMPARISONS)[number];

export interface Condition {
  op: ComparisonOp;
  value: unknown;
}

/** The conditions on one field path, all of which must hold. */
export interface FieldPredicate {
  path: string;
  conditions: Condition[];
}

/** A filter as the list of its field predicates (implicit AND). */
export type ParsedFilter = FieldPredicate[];

const isComparison = (k: string): k is ComparisonOp => (COMPARISONS as readonly string[]).includes(k);

function parseCondition(path: string, value: unknown, where: string): Condition[] {
  if (!isDoc(value)) return [{ op: '$eq', value }];
  const keys = Object.keys(value);
  const ops = keys.filter((k) => k.startsWith('$'));
  if (ops.length === 0) return [{ op: '$eq', value }];
  if (ops.length !== keys.length) {
    refuse('BadValue', `${where}: the condition on "${path}" mixes operators and field names; write either {${path}: {$gt: ...}} or {${path}: {field: ...}}`);
  }
  return ops.map((op) => {
    if (!isComparison(op)) refuse('BadValue', `${where}: unknown operator ${op} on "${path}"; supported: ${COMPARISONS.join(', ')}`);
    const operand = value[op];
    if (op === '$in' && !Array.isArray(operand)) refuse('BadValue', `${where}: $in on "${path}" needs an array, e.g. {${path}: {$in: ["a", "b"]}}`);
    return { op, value: operand };
  });
}

/** Validates and parses a filter document; `where` names it in refusal messages. */
export function parseFilter(filter: unknown, where: string): ParsedFilter {
  if (filter === undefined || filter === null) return [];
  if (!isDoc(filter)) refuse('TypeMismatch', `${where} must be a document, e.g. {name: "x"}`);
  const out: ParsedFilter = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and') {
      if (!Array.isArray(value) || value.length === 0) refuse('BadValue', `${where}: $and needs a non-empty array of filters`);
      for (const [i, sub] of value.entries()) out.push(...parseFilter(sub, `${where}.$and[${i}]`));
      continue;
    }
    if (key.startsWith('$')) refuse('BadValue', `${where}: unknown top-level operator ${key}; supported: $and, and field conditions`);
    out.push({ path: key, conditions: parseCondition(key, value, where) });
  }
  return out;
}

/** The values a condition is tried against: each value reached, and each element of an array reached. */
function candidates(values: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    out.push(v);
    if (Array.isArray(v)) out.push(...v);
  }
  return out;
}

function equalTo(values: unknown[], wanted: unknown, collator: Collator): boolean {
  if (wanted === null) return values.length === 0 || candidates(values).some((c) => c === null);
  return candidates(values).some((c) =>
    typeof c === 'string' && typeof wanted === 'string' ? collator.equals(c, wanted) : compareValues(c, wanted, collator.compare) === 0 && typeRank(c) === typeRank(wanted),
  );
}

function conditionHolds(values: unknown[], cond: Condition, collator: Collator): boolean {
  const cmp = (c: unknown): number => compareValues(c, cond.value, (a, b) => collator.compare(a, b));
  const sameType = (c: unknown): boolean => typeRank(c) === typeRank(cond.value);
  switch (cond.op) {
    case '$eq':
      return equalTo(values, cond.value, collator);
    case '$ne':
      return !equalTo(values, cond.value, collator);
    case '$in':
      return (cond.value as unknown[]).some((w) => equalTo(values, w, collator));
    case '$gt':
      return candidates(values).some((c) => sameType(c) && cmp(c) > 0);
    case '$gte':
      return candidates(values).some((c) => sameType(c) && cmp(c) >= 0);
    case '$lt':
      return candidates(values).some((c) => sameType(c) && cmp(c) < 0);
    case '$lte':
      return candidates(values).some((c) => sameType(c) && cmp(c) <= 0);
  }
}

export function matches(doc: Doc, filter: ParsedFilter, collator: Collator, keys: KeyEquals = binaryKeys): boolean {
  return filter.every((p) => {
    const values = valuesAtPath(doc, splitPath(p.path), keys);
    return p.conditions.every((c) => conditionHolds(values, c, collator));
  });
}

/** A predicate written back as a filter document (for explain output). */
export function filterDocument(preds: readonly FieldPredicate[]): Doc {
  const out: Doc = {};
  for (const p of preds) {
    const prev = out[p.path];
    const ops: Doc = isDoc(prev) ? prev : {};
    for (const c of p.conditions) ops[c.op] = c.value;
    out[p.path] = ops;
  }
  return out;
}
