/**
 * Query plans for explain. An index narrows a field's scan when the operation's collation equals
 * the index's, or when the field's predicate holds no string (part F, "Collation and indexes" 1-2);
 * otherwise that field reads "[MinKey, MaxKey]" and its predicate is applied in the FETCH stage.
 * The index with the most bounded fields wins (the first created on a tie); an index is usable
 * only when its first field is bounded; without one the plan is a collection scan.
 */
import type { Collation } from '../types.js';
import { formatIntervals, FULL_RANGE, intervalsFor, isBoundable } from './bounds.js';
import { isOrderedKey, keyDocument, type Collection, type IndexSpec } from './catalog.js';
import { collationsEqual } from './collations.js';
import type { StoreContext } from './context.js';
import { filterDocument, type Condition, type FieldPredicate, type ParsedFilter } from './filter.js';
import { refuse } from './refusal.js';
import { collatorOrder } from './sort-project.js';
import { holdsString, isDoc, type Doc } from './values.js';

export type Hint = IndexSpec | 'natural' | undefined;

/** Finds the index a `hint` names (by name or by key pattern); an unknown one is refused. */
export function resolveHint(base: Collection | undefined, hint: unknown, where: string): Hint {
  if (hint === undefined) return undefined;
  if (isDoc(hint) && Object.keys(hint).length === 1 && Object.hasOwn(hint, '$natural')) return 'natural';
  const found =
    typeof hint === 'string'
      ? base?.indexes.find((i) => i.name === hint)
      : isDoc(hint)
        ? base?.indexes.find((i) => JSON.stringify(keyDocument(i)) === JSON.stringify(hint))
        : refuse('BadValue', `${where}: hint must be an index name or a key pattern such as {name: 1}`);
  if (found === undefined) refuse('BadValue', `${where}: hint ${JSON.stringify(hint)} does not correspond to an existing index; see listIndexes`);
  return found;
}

/** Whether an index's collation lets this operation bound a string predicate. */
function compatible(ctx: StoreContext, index: IndexSpec, collation: Collation): boolean {
  if (collationsEqual(index.collation.collation, collation)) return true;
  if (collation === 'simple') return ctx.faults.simpleUsesCollatedIndex === true;
  return ctx.faults.indexIgnoresCollationMismatch === true;
}

interface Candidate {
  index: IndexSpec;
  usable: boolean;
  bounded: number;
  bounds: Record<string, string[]>;
  residual: FieldPredicate[];
}

function conditionsByPath(filter: ParsedFilter): Map<string, Condition[]> {
  const out = new Map<string, Condition[]>();
  for (const p of filter) out.set(p.path, [...(out.get(p.path) ?? []), ...p.conditions]);
  return out;
}

function evaluate(ctx: StoreContext, index: IndexSpec, filter: ParsedFilter, collation: Collation): Candidate {
  const byPath = conditionsByPath(filter);
  const strings = collatorOrder(ctx.collations.collator(index.collation.collation));
  const fits = compatible(ctx, index, collation);
  const bounds: Record<string, string[]> = {};
  const used = new Set<Condition>();
  let bounded = 0;
  let firstBounded = false;
  let refused = false;
  for (const [i, [field, type]] of index.key.entries()) {
    const conds = (byPath.get(field) ?? []).filter(isBoundable);
    const sensitive = conds.some((c) => holdsString(c.value));
    if (sensitive && !fits && ctx.faults.noPrefixUseWithOtherCollation === true) refused = true;
    if (!isOrderedKey(type) || conds.length === 0 || (sensitive && !fits)) {
      bounds[field] = [FULL_RANGE];
      continue;
    }
    const r = intervalsFor(conds, strings);
    bounds[field] = formatIntervals(r.intervals, type);
    for (const c of r.used) used.add(c);
    bounded++;
    if (i === 0) firstBounded = true;
  }
  const residual: FieldPredicate[] = [];
  for (const [path, conds] of byPath) {
    const rest = conds.filter((c) => !used.has(c));
    if (rest.length > 0) residual.push({ path, conditions: rest });
  }
  return { index, usable: firstBounded && !refused, bounded, bounds, residual };
}

function indexScan(c: Candidate): Doc {
  const ixscan: Doc = { stage: 'IXSCAN', indexName: c.index.name, keyPattern: keyDocument(c.index), indexBounds: c.bounds, direction: 'forward' };
  const fetch: Doc = { stage: 'FETCH', inputStage: ixscan };
  if (c.residual.length > 0) fetch.filter = filterDocument(c.residual);
  return fetch;
}

function collectionScan(filter: ParsedFilter): Doc {
  const scan: Doc = { stage: 'COLLSCAN', direction: 'forward' };
  if (filter.length > 0) scan.filter = filterDocument(filter);
  return scan;
}

/** The plan that reads the base collection for a filter under an operation's collation. */
export function planScan(ctx: StoreContext, base: Collection | undefined, filter: ParsedFilter, collation: Collation, hint: Hint): Doc {
  if (base === undefined) return { stage: 'EOF' };
  if (hint === 'natural') return collectionScan(filter);
  if (hint !== undefined) return indexScan(evaluate(ctx, hint, filter, collation));
  let best: Candidate | undefined;
  for (const index of base.indexes) {
    if (!index.key.every(([, t]) => isOrderedKey(t))) continue;
    const c = evaluate(ctx, index, filter, collation);
    if (c.usable && (best === undefined || c.bounded > best.bounded)) best = c;
  }
  return best === undefined ? collectionScan(filter) : indexScan(best);
}

