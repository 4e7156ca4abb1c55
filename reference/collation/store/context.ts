/** What every command handler shares: the namespaces, the collation rules, the planted faults. */
import type { Collator } from '../types.js';
import type { Namespace } from './catalog.js';
import type { Collations } from './collations.js';
import type { StoreFaults } from './faults.js';
import { binaryKeys, type KeyEquals } from './paths.js';

export interface StoreContext {
  readonly namespaces: Map<string, Namespace>;
  readonly collations: Collations;
  readonly faults: StoreFaults;
  /** The database name cursors report in `ns` ("<database>.<collection>"). */
  readonly database: string;
  /** A fresh `_id` for a document inserted without one. */
  nextId(): string;
}

/** How filter field names meet document keys: byte for byte, unless the fault is planted. */
export function keyEquality(ctx: StoreContext, collator: Collator): KeyEquals {
  return ctx.faults.keyMatchUsesCollation === true ? (a, b) => collator.equals(a, b) : binaryKeys;
}

/** The order a sort uses: the operation's collator, unless the fault is planted. */
export function sortCollator(ctx: StoreContext, collator: Collator): Collator {
  return ctx.faults.sortIgnoresCollation === true ? ctx.collations.collator('simple') : collator;
}
