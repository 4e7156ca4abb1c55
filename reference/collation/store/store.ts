/**
 * The collation reference store (spec 001 part F): an in-memory document database spoken to with
 * command documents (see README.md in this folder). It takes its string comparison from the
 * comparator it is given, and can be built with planted faults (faults.ts).
 */
import { SpecgateError } from '../../../src/errors.js';
import type { Collation, Collator } from '../types.js';
import { Collations } from './collations.js';
import type { StoreContext } from './context.js';
import { collMod } from './coll-mod.js';
import { create, createIndexes, drop, listCollections, listIndexes } from './ddl.js';
import { explain } from './explain.js';
import { isStoreFaultName, type StoreFaults } from './faults.js';
import { aggregate, count, distinct, find } from './reads.js';
import { CODES, Refusal } from './refusal.js';
import { isDoc, type Doc } from './values.js';
import { insert, remove, update } from './writes.js';

export interface StoreOptions {
  parseCollation(doc: unknown): Collation;
  makeCollator(c: Collation): Collator;
  /**
   * Planted deviations, by name; see faults.ts. The store reads this object at every command
   * (it keeps no copy), so whoever built it may turn a switch on for one command only.
   */
  faults?: StoreFaults;
  /** The database name cursors report in `ns`; "test" when absent. */
  database?: string;
}

export interface Store {
  /** Runs one command document; a refusal is `{ok: 0, code, codeName, errmsg}`, never an exception. */
  command(doc: Record<string, unknown>): Record<string, unknown>;
  /** The faults this store was built with. */
  readonly faults: Readonly<StoreFaults>;
}

type Handler = (ctx: StoreContext, cmd: Doc) => Doc;

const COMMANDS: Record<string, Handler> = {
  create,
  collMod,
  drop,
  insert,
  find,
  count,
  distinct,
  aggregate,
  update,
  delete: remove,
  createIndexes,
  listCollections,
  listIndexes,
  explain,
};

export function createStore(options: StoreOptions): Store {
  const faults: StoreFaults = options.faults ?? {};
  for (const name of Object.keys(faults)) {
    if (!isStoreFaultName(name)) throw new SpecgateError('SG_CONFIG', `unknown store fault "${name}"; the faults are listed in reference/collation/store/faults.ts`);
  }
  let ids = 0;
  const ctx: StoreContext = {
    namespaces: new Map(),
    collations: new Collations({ parseCollation: options.parseCollation, makeCollator: options.makeCollator }, faults),
    faults,
    database: options.database ?? 'test',
    nextId: () => (++ids).toString(16).padStart(24, '0'),
  };
  return {
    faults,
    command(doc) {
      if (!isDoc(doc)) return new Refusal('BadValue', 'a command must be a document such as {find: "items"}').toReply();
      const name = Object.keys(doc)[0];
      const handler = name === undefined || !Object.hasOwn(COMMANDS, name) ? undefined : COMMANDS[name];
      if (handler === undefined) {
        return new Refusal('CommandNotFound', `no such command: "${String(name)}"; supported: ${Object.keys(COMMANDS).join(', ')}`).toReply();
      }
      try {
        return handler(ctx, doc);
      } catch (e) {
        if (e instanceof Refusal) return e.toReply();
        const text = e instanceof Error ? e.message : String(e);
        return { ok: 0, code: CODES.InternalError, codeName: 'InternalError', errmsg: `${name}: ${text}` };
      }
    },
  };
}
