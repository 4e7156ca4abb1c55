import { randomBytes } from 'node:crypto';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';
import type { DocumentDatabaseTarget } from '../../../src/targets/database/types.js';
import { CollationRefused, type CollationPort } from './types.js';

/**
 * The comparator questions asked of a document database through its commands: the strings go
 * into one scratch collection (simple default collation, so only the operation's collation
 * decides), then a `find` with the collation sorts them or matches a probe. The scratch
 * collection is named `sg_scratch_<random>` and dropped when the port closes.
 */
export function documentsPort(db: DocumentDatabaseTarget): CollationPort {
  const scratch = `sg_scratch_${randomBytes(4).toString('hex')}`;
  let loaded: readonly string[] | undefined;
  let created = false;

  /** Puts exactly `strings` in the scratch collection (skipped when it already holds them). */
  async function load(strings: readonly string[], signal?: AbortSignal): Promise<void> {
    if (loaded && loaded.length === strings.length && loaded.every((s, i) => s === strings[i])) return;
    if (created) await db.command({ delete: scratch, deletes: [{ q: {}, limit: 0 }] }, signal);
    else {
      await db.command({ create: scratch }, signal);
      created = true;
    }
    loaded = undefined;
    if (strings.length > 0) await db.command({ insert: scratch, documents: strings.map((s, i) => ({ _id: i, s })) }, signal);
    loaded = strings.slice();
  }

  async function find(command: Record<string, unknown>, signal?: AbortSignal): Promise<string[]> {
    let reply: Record<string, unknown>;
    try {
      reply = await db.command({ find: scratch, projection: { _id: 0, s: 1 }, ...command }, signal);
    } catch (e) {
      if (e instanceof DatabaseAnswerError) throw new CollationRefused(e.sqlState, e.dbMessage);
      throw e;
    }
    return firstBatch(reply).map((d) => (typeof d.s === 'string' ? d.s : String(d.s)));
  }

  return {
    description: db.description,
    documents: true,
    async sort(strings, collation, signal) {
      await load(strings, signal);
      return find({ sort: { s: 1 }, collation, batchSize: strings.length + 1 }, signal);
    },
    async matches(strings, probe, collation, signal) {
      await load(strings, signal);
      return find({ filter: { s: probe }, collation, batchSize: strings.length + 1 }, signal);
    },
    async close() {
      if (created) await db.command({ drop: scratch }).catch(() => undefined);
      created = false;
      loaded = undefined;
    },
  };
}

/** `cursor.firstBatch` of a find reply, as documents; anything else is an empty list. */
function firstBatch(reply: Record<string, unknown>): Record<string, unknown>[] {
  const cursor = reply.cursor;
  if (typeof cursor !== 'object' || cursor === null) return [];
  const batch = (cursor as { firstBatch?: unknown }).firstBatch;
  return Array.isArray(batch) ? batch.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null) : [];
}
