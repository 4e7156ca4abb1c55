import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../../src/engine/checks/contract.js';

/**
 * `collation.namespace`: the case needs collections, views and indexes (a document database);
 * sets `ns`, a prefix for the names it creates (`sg_<random>`), fresh for each case so runs
 * against a shared database never meet an earlier run's collections. On a comparator-only
 * target (PostgreSQL) the case is not applicable.
 */
export const namespaceCheck = defineCheck<Record<string, never>>({
  description: 'the case needs a document database (collections, views, indexes); sets ns, a fresh name prefix',
  args: { type: 'object', additionalProperties: false, properties: {} },
  judges: 'case',
  sets: ['ns'],
  async run(ctx) {
    if (!ctx.documents)
      ctx.notApplicable('the target answers only comparator questions (sorting and matching strings): collections, views, indexes and document validation need a document database');
    ctx.vars.ns = `sg_${randomBytes(4).toString('hex')}`;
  },
});
