import { copy, type Json } from './json.js';

/**
 * One kind of item keyed by its ID, in insertion order. Every read answers a copy. `put`
 * stores a whole representation (insert, PUT), `merge` changes the fields given (PATCH); the
 * ID field always holds the key.
 */
export class Records {
  private readonly items = new Map<string, Json>();

  constructor(readonly idField: string) {}

  /** Stores `rep` under `id`, replacing any item with that ID (it keeps its place in the order). */
  put(id: string, rep: Json): Json {
    const stored = { ...copy(rep), [this.idField]: id };
    this.items.set(id, stored);
    return copy(stored);
  }

  get(id: string): Json | undefined {
    const item = this.items.get(id);
    return item === undefined ? undefined : copy(item);
  }

  has(id: string): boolean {
    return this.items.has(id);
  }

  /** Every item, oldest first. */
  list(): Json[] {
    return [...this.items.values()].map((item) => copy(item));
  }

  /** Replaces an existing item (PUT); undefined when there is none. */
  replace(id: string, rep: Json): Json | undefined {
    return this.items.has(id) ? this.put(id, rep) : undefined;
  }

  /** Sets the top-level fields given on an existing item (PATCH); undefined when there is none. */
  merge(id: string, fields: Json): Json | undefined {
    const cur = this.items.get(id);
    return cur === undefined ? undefined : this.put(id, { ...cur, ...copy(fields) });
  }

  remove(id: string): boolean {
    return this.items.delete(id);
  }

  ids(): string[] {
    return [...this.items.keys()];
  }
}
