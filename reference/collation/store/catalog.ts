/** The namespaces of a store: collections with their documents and indexes, and views. */
import type { StoredCollation } from './collations.js';
import type { Doc } from './values.js';

/** One key of an index: a field and its direction, or a special type such as "text". */
export type IndexKeyType = 1 | -1 | 'text' | '2d' | '2dsphere' | 'geoHaystack' | 'hashed';

export interface IndexSpec {
  name: string;
  key: Array<[string, IndexKeyType]>;
  collation: StoredCollation;
  unique: boolean;
}

export interface Collection {
  kind: 'collection';
  name: string;
  collation: StoredCollation;
  docs: Doc[];
  indexes: IndexSpec[];
}

export interface View {
  kind: 'view';
  name: string;
  viewOn: string;
  pipeline: Doc[];
  collation: StoredCollation;
}

export type Namespace = Collection | View;

export function keyDocument(spec: IndexSpec): Doc {
  return Object.fromEntries(spec.key);
}

/** Whether a key type orders values (and so can give bounds); text, geo and hashed keys cannot. */
export function isOrderedKey(t: IndexKeyType): t is 1 | -1 {
  return t === 1 || t === -1;
}

/** Key types that support only simple binary comparison (part F, "Collation and indexes" 4). */
export const SIMPLE_ONLY_KEY_TYPES: readonly IndexKeyType[] = ['text', '2d', 'geoHaystack'];

export function newCollection(name: string, collation: StoredCollation): Collection {
  return { kind: 'collection', name, collation, docs: [], indexes: [{ name: '_id_', key: [['_id', 1]], collation, unique: true }] };
}
