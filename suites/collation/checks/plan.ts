import { defineCheck } from '../../../src/engine/checks/contract.js';
import { SpecgateError } from '../../../src/errors.js';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';

interface PlanArgs {
  /** The command explained: a `find`, `count` or `aggregate` document. */
  explain: Record<string, unknown>;
  /** The index the winning plan must scan, or `none`: no index scan at all. */
  uses?: string;
  /** The index `bounded` and `unbounded` speak of; default: `uses`. */
  index?: string;
  /** Fields the scan of `index` must narrow (bounds other than the whole range). */
  bounded?: string[];
  /** Fields no scan of `index` may narrow: the index is not scanned, or scanned over the whole range of these fields. */
  unbounded?: string[];
  requirement?: string;
  because?: string;
}

interface IndexScan {
  indexName: unknown;
  indexBounds: Record<string, unknown>;
}

/** Bounds that read the whole range of a field, ascending or descending. */
const WHOLE_RANGE = new Set(['[MinKey, MaxKey]', '[MaxKey, MinKey]']);

/**
 * The IXSCAN stages of an explain reply, at any depth (servers nest them under FETCH, SORT,
 * COUNT, `$cursor` or `queryPlan` stages, each in its own shape), leaving out plans that lost.
 */
export function indexScans(value: unknown, out: IndexScan[] = []): IndexScan[] {
  if (Array.isArray(value)) {
    for (const v of value) indexScans(v, out);
    return out;
  }
  if (typeof value !== 'object' || value === null) return out;
  const doc = value as Record<string, unknown>;
  if (doc.stage === 'IXSCAN') {
    const bounds = doc.indexBounds;
    out.push({ indexName: doc.indexName, indexBounds: typeof bounds === 'object' && bounds !== null && !Array.isArray(bounds) ? (bounds as Record<string, unknown>) : {} });
  }
  for (const [k, v] of Object.entries(doc)) if (k !== 'rejectedPlans') indexScans(v, out);
  return out;
}

/** Whether a field's bounds narrow it: present and not just the whole range. */
function narrows(bounds: unknown): boolean {
  if (!Array.isArray(bounds) || bounds.length === 0) return false;
  return !bounds.every((b) => typeof b === 'string' && WHOLE_RANGE.has(b));
}

/**
 * `collation.plan`: explains a command on the target and judges the winning plan's index scans
 * (found at any depth): which index it scans (`uses`, or `none`), and which fields of an index
 * are narrowed by bounds (`bounded`) or read over their whole range (`unbounded`). Part F,
 * "Collation and indexes" 1-2: a collated index serves string comparisons only of operations
 * with its collation. Only IXSCAN stages are read: explain finds and aggregations, since a
 * server may answer a count from the index alone in a stage of another shape (COUNT_SCAN).
 */
export const planCheck = defineCheck<PlanArgs>({
  description: 'explains a command and judges the winning plan\'s index scans at any depth: the index used (or none), and the fields its bounds narrow or leave whole',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['explain'],
    properties: {
      explain: { type: 'object', description: 'the find, count or aggregate command explained' },
      uses: { type: 'string', minLength: 1, description: 'the index the winning plan scans, or `none` for no index scan' },
      index: { type: 'string', minLength: 1, description: 'the index bounded/unbounded speak of (default: uses)' },
      bounded: { type: 'array', items: { type: 'string' }, description: 'fields the index scan narrows' },
      unbounded: { type: 'array', items: { type: 'string' }, description: 'fields no scan of the index narrows' },
      requirement: { type: 'string', pattern: '^COLL-[A-Z0-9-]+$', description: 'the requirement judged (default: all of the case)' },
      because: { type: 'string' },
    },
  },
  judges: 'case',
  async run(ctx, args) {
    const db = ctx.documents;
    if (!db) return ctx.notApplicable('query plans need a document database');
    const index = args.index ?? (args.uses !== 'none' ? args.uses : undefined);
    if ((args.bounded?.length || args.unbounded?.length) && index === undefined)
      throw new SpecgateError('SG_CONFIG', 'collation.plan: `bounded` and `unbounded` need the index they speak of: give `index:` or `uses: <index name>`');
    const attributed = args.requirement ? { requirement: args.requirement } : {};
    const why = args.because ? ` (${args.because})` : '';
    const what = Object.keys(args.explain)[0] ?? 'command';
    let reply: Record<string, unknown>;
    try {
      reply = await db.command({ explain: args.explain }, ctx.signal);
    } catch (e) {
      if (e instanceof DatabaseAnswerError) {
        ctx.fail({ ...attributed, message: `the database refused to explain the ${what}: ${e.dbMessage}`, expected: 'a query plan', actual: e.toObservation() });
        return;
      }
      throw e;
    }
    const scans = indexScans(reply);
    const scanned = scans.map((s) => String(s.indexName));
    const shown = scans.length ? scans.map((s) => `${String(s.indexName)} ${JSON.stringify(s.indexBounds)}`).join('; ') : 'no index scan';
    if (args.uses === 'none' && scans.length > 0)
      ctx.fail({ ...attributed, message: `the ${what} was planned with an index scan, where none can serve it${why}: ${shown}`, expected: 'no IXSCAN stage', actual: scans });
    else if (args.uses !== undefined && args.uses !== 'none' && !scanned.includes(args.uses))
      ctx.fail({ ...attributed, message: `the ${what} was not planned with the index ${args.uses}${why}: ${shown}`, expected: `an IXSCAN of ${args.uses}`, actual: scans });
    if (index === undefined) return;
    const mine = scans.filter((s) => s.indexName === index);
    for (const field of args.bounded ?? []) {
      if (!mine.some((s) => narrows(s.indexBounds[field])))
        ctx.fail({ ...attributed, message: `the ${what}'s scan of index ${index} does not narrow "${field}"${why}: ${shown}`, expected: `bounds on ${field} other than [MinKey, MaxKey]`, actual: scans });
    }
    for (const field of args.unbounded ?? []) {
      const narrowed = mine.filter((s) => narrows(s.indexBounds[field]));
      if (narrowed.length > 0)
        ctx.fail({ ...attributed, message: `the ${what}'s scan of index ${index} narrows "${field}" with bounds, which that index cannot give it${why}: ${shown}`, expected: `no scan of ${index}, or ${field} read over [MinKey, MaxKey]`, actual: narrowed });
    }
  },
});
