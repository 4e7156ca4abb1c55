/** `find`, `count`, `distinct` and `aggregate`: each runs with the operation's one collation. */
import { nameArg, optionalCount } from './args.js';
import { keyEquality, sortCollator, type StoreContext } from './context.js';
import { matches, parseFilter } from './filter.js';
import { splitPath, valuesAtPath } from './paths.js';
import { checkForeignViews, parsePipeline, runPipeline } from './pipeline.js';
import { resolveHint } from './planner.js';
import { refuse } from './refusal.js';
import { collatorOrder, parseProjection, parseSort, project, sortDocs } from './sort-project.js';
import { foreignReader, operationCollation, readSource } from './source.js';
import { clone, compareValues, type Doc } from './values.js';

function cursor(ctx: StoreContext, name: string, docs: Doc[]): Doc {
  return { cursor: { firstBatch: docs.map(clone), id: 0, ns: `${ctx.database}.${name}` }, ok: 1 };
}

export function find(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'find');
  const filter = parseFilter(cmd.filter, 'find: filter');
  const sort = parseSort(cmd.sort, 'find: sort');
  const projection = parseProjection(cmd.projection, 'find: projection');
  const limit = optionalCount(cmd, 'limit', 'find');
  const skip = optionalCount(cmd, 'skip', 'find') ?? 0;
  const src = readSource(ctx, name);
  const collation = operationCollation(ctx, src, cmd.collation, 'find').collation;
  resolveHint(src.base, cmd.hint, 'find');
  const collator = ctx.collations.collator(collation);
  const keys = keyEquality(ctx, collator);
  let docs = sortDocs(src.docs.filter((d) => matches(d, filter, collator, keys)), sort, collatorOrder(sortCollator(ctx, collator)));
  docs = docs.slice(skip, limit === undefined || limit === 0 ? undefined : skip + limit);
  return cursor(ctx, name, docs.map((d) => project(d, projection)));
}

export function count(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'count');
  const filter = parseFilter(cmd.query, 'count: query');
  const src = readSource(ctx, name);
  const collator = ctx.collations.collator(operationCollation(ctx, src, cmd.collation, 'count').collation);
  resolveHint(src.base, cmd.hint, 'count');
  return { n: src.docs.filter((d) => matches(d, filter, collator, keyEquality(ctx, collator))).length, ok: 1 };
}

/** Distinct values under the collation (strings equal under it count once, the first seen kept), in collation order. */
export function distinct(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'distinct');
  const key = cmd.key;
  if (typeof key !== 'string' || key === '') refuse('BadValue', 'distinct needs "key" as a field path string, e.g. {distinct: "items", key: "name"}');
  const filter = parseFilter(cmd.query, 'distinct: query');
  const src = readSource(ctx, name);
  const collator = ctx.collations.collator(operationCollation(ctx, src, cmd.collation, 'distinct').collation);
  const keys = keyEquality(ctx, collator);
  const values: unknown[] = [];
  const order = collatorOrder(collator);
  for (const doc of src.docs.filter((d) => matches(d, filter, collator, keys))) {
    for (const v of valuesAtPath(doc, splitPath(key)).flatMap((x) => (Array.isArray(x) ? x : [x]))) {
      if (!values.some((seen) => compareValues(seen, v, order) === 0)) values.push(v);
    }
  }
  values.sort((a, b) => compareValues(a, b, order));
  return { values: clone(values), ok: 1 };
}

export function aggregate(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'aggregate');
  const stages = parsePipeline(cmd.pipeline, 'aggregate: pipeline');
  const src = readSource(ctx, name);
  const collation = operationCollation(ctx, src, cmd.collation, 'aggregate').collation;
  checkForeignViews(ctx, stages, collation, 'aggregate');
  return cursor(ctx, name, runPipeline(ctx, stages, src.docs, collation, foreignReader(ctx)));
}
