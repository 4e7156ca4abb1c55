/**
 * A small stand-in comparator for the store's tests: simple is code point order, and three
 * locales compare through Intl.Collator (strength 1 ignores case and accents, 2 ignores case).
 * The store is tested against its rules, not against ICU, so this is enough.
 */
import type { Collation, Collator, ResolvedCollation } from '../../../../reference/collation/types.js';
import { createStore, type Store, type StoreFaults } from '../../../../reference/collation/store/index.js';
import { codePointCompare } from '../../../../reference/collation/store/values.js';

class CollationDocumentError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
  ) {
    super(message);
  }
}

const LOCALES = ['en', 'fr', 'de'];
const FIELDS = ['locale', 'strength', 'caseLevel', 'caseFirst', 'numericOrdering', 'alternate', 'maxVariable', 'normalization', 'backwards'];

export function parseCollation(doc: unknown): Collation {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new CollationDocumentError(14, 'TypeMismatch', 'collation must be a document');
  const d = doc as Record<string, unknown>;
  const unknown = Object.keys(d).find((k) => !FIELDS.includes(k));
  if (unknown !== undefined) throw new CollationDocumentError(2, 'BadValue', `unknown collation field ${unknown}`);
  if (typeof d.locale !== 'string') throw new CollationDocumentError(2, 'BadValue', 'missing locale');
  if (d.locale === 'simple') return 'simple';
  if (!LOCALES.includes(d.locale)) throw new CollationDocumentError(2, 'BadValue', `unsupported locale ${d.locale}`);
  const strength = d.strength ?? 3;
  if (strength !== 1 && strength !== 2 && strength !== 3 && strength !== 4 && strength !== 5) throw new CollationDocumentError(2, 'BadValue', 'strength must be 1 to 5');
  const resolved: ResolvedCollation = {
    locale: d.locale,
    strength,
    caseLevel: d.caseLevel === true,
    caseFirst: 'off',
    numericOrdering: d.numericOrdering === true,
    alternate: 'non-ignorable',
    maxVariable: 'punct',
    normalization: false,
    backwards: d.backwards === true,
  };
  return resolved;
}

export function makeCollator(c: Collation): Collator {
  if (c === 'simple') return { collation: c, compare: codePointCompare, equals: (a, b) => a === b };
  const sensitivity = c.strength === 1 ? 'base' : c.strength === 2 ? 'accent' : 'variant';
  const intl = new Intl.Collator(c.locale, { sensitivity, numeric: c.numericOrdering });
  return { collation: c, compare: (a, b) => intl.compare(a, b), equals: (a, b) => intl.compare(a, b) === 0 };
}

export function makeStore(faults: StoreFaults = {}): Store {
  return createStore({ parseCollation, makeCollator, faults });
}

export const EN2 = { locale: 'en', strength: 2 };
export const EN1 = { locale: 'en', strength: 1 };
export const FR2 = { locale: 'fr', strength: 2 };
export const SIMPLE_DOC = { locale: 'simple' };

type Reply = Record<string, unknown>;

/** Runs a command that must succeed and returns its reply. */
export function run(store: Store, cmd: Reply): Reply {
  const reply = store.command(cmd);
  if (reply.ok !== 1) throw new CollationDocumentError(0, 'TestFailure', `expected ok: 1 from ${JSON.stringify(cmd)}, got ${JSON.stringify(reply)}`);
  return reply;
}

export function batch(reply: Reply): Reply[] {
  const cursor = reply.cursor as { firstBatch: Reply[] };
  return cursor.firstBatch;
}

export function names(reply: Reply, field = 'name'): unknown[] {
  return batch(reply).map((d) => d[field]);
}

/** A collection of words with ids, optionally with a default collation. */
export function seedWords(store: Store, name: string, words: string[], collation?: Reply): void {
  run(store, collation === undefined ? { create: name } : { create: name, collation });
  run(store, { insert: name, documents: words.map((w, i) => ({ _id: i + 1, name: w })) });
}
