import { defineCheck } from '../../../src/engine/checks/contract.js';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';

interface IndexKindArgs {
  /** The collection the probe index is built on: created here without a collation (simple). */
  collection: string;
  /** The index to probe with, as `createIndexes` takes it (`key`, `name`, kind-specific options). */
  index: Record<string, unknown>;
  /** The kind, for the reason given when the database does not have it. */
  kind: string;
}

/**
 * `collation.indexKind`: whether the database has an index kind at all, asked where collation
 * plays no part: the index is created on a fresh collection without a collation. A database that
 * refuses it there has no such kind (the best-known document database removed `geoHaystack` in
 * version 5.0), so the case, which judges how that kind meets collations, is not applicable. The
 * probe collection is dropped afterwards.
 */
export const indexKindCheck = defineCheck<IndexKindArgs>({
  description: 'the case needs an index kind the database may not have: probed on a collection without a collation; not applicable when refused there',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['collection', 'index', 'kind'],
    properties: { collection: { type: 'string', minLength: 1 }, index: { type: 'object', required: ['key', 'name'] }, kind: { type: 'string', minLength: 1 } },
  },
  judges: 'case',
  async run(ctx, args) {
    const db = ctx.documents;
    if (!db) return ctx.notApplicable('the target answers only comparator questions (sorting and matching strings): indexes need a document database');
    try {
      await db.command({ create: args.collection }, ctx.signal);
      await db.command({ createIndexes: args.collection, indexes: [args.index] }, ctx.signal);
    } catch (e) {
      if (!(e instanceof DatabaseAnswerError)) throw e;
      return ctx.notApplicable(`the database has no ${args.kind} index: it refused one on a collection without a collation (${e.dbMessage})`);
    } finally {
      await db.command({ drop: args.collection }, ctx.signal).catch(() => undefined);
    }
  },
});
