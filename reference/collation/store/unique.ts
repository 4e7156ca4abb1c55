/**
 * Unique indexes (the `_id` index among them) compare keys with the index's collation: on a
 * collection whose default ignores case, `_id: "A"` and `_id: "a"` are the same key.
 */
import type { Collection, IndexSpec } from './catalog.js';
import type { StoreContext } from './context.js';
import { getPath } from './paths.js';
import { collatorOrder } from './sort-project.js';
import { compareValues, type Doc } from './values.js';

function keyOf(doc: Doc, index: IndexSpec): unknown[] {
  return index.key.map(([field]) => getPath(doc, field).value ?? null);
}

export interface Duplicate {
  index: IndexSpec;
  key: Doc;
}

/** The unique index `doc` would break among the collection's documents other than `self`. */
export function findDuplicate(ctx: StoreContext, coll: Collection, doc: Doc, self?: Doc, indexes: readonly IndexSpec[] = coll.indexes): Duplicate | undefined {
  for (const index of indexes) {
    if (!index.unique) continue;
    const collation = ctx.faults.uniqueIndexIgnoresCollation === true ? 'simple' : index.collation.collation;
    const order = collatorOrder(ctx.collations.collator(collation));
    const mine = keyOf(doc, index);
    const clash = coll.docs.some((other) => other !== self && keyOf(other, index).every((v, i) => compareValues(v, mine[i], order) === 0));
    if (clash) return { index, key: Object.fromEntries(index.key.map(([f], i) => [f, mine[i]])) };
  }
  return undefined;
}

export function duplicateMessage(ctx: StoreContext, coll: Collection, d: Duplicate): string {
  return `E11000 duplicate key error collection: ${ctx.database}.${coll.name} index: ${d.index.name} dup key: ${JSON.stringify(d.key)}`;
}
