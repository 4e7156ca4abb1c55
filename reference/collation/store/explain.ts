/**
 * `explain` of a `find`, `count` or `aggregate`: the plan the store would run, under the
 * operation's one collation. The refusals of the command itself (a view's collation overridden,
 * a bad hint) apply to its explain too.
 */
import type { Collation } from '../types.js';
import { nameArg, optionalCount } from './args.js';
import type { StoreContext } from './context.js';
import { parseFilter, type ParsedFilter } from './filter.js';
import { checkForeignViews, parsePipeline } from './pipeline.js';
import { planScan, resolveHint } from './planner.js';
import { refuse } from './refusal.js';
import { parseSort, type SortKey } from './sort-project.js';
import { operationCollation, readSource } from './source.js';
import { isDoc, type Doc } from './values.js';

const sortPattern = (keys: readonly SortKey[]): Doc => Object.fromEntries(keys.map((k) => [k.path, k.direction]));

function plan(ctx: StoreContext, cmd: Doc, command: string, filter: ParsedFilter, sort: SortKey[], limit: number | undefined, pipelineCheck?: (collation: Collation) => void): Doc {
  const name = nameArg(cmd, command);
  const src = readSource(ctx, name);
  const collation = operationCollation(ctx, src, cmd.collation, command).collation;
  pipelineCheck?.(collation);
  const hint = resolveHint(src.base, cmd.hint, command);
  const scanFilter = src.pushable ? [...src.pushedFilter, ...filter] : src.pushedFilter;
  let stage = planScan(ctx, src.base, scanFilter, collation, hint);
  if (sort.length > 0) {
    stage = { stage: 'SORT', sortPattern: sortPattern(sort), ...(limit ? { limitAmount: limit } : {}), inputStage: stage };
  } else if (limit) {
    stage = { stage: 'LIMIT', limitAmount: limit, inputStage: stage };
  }
  if (command === 'count') stage = { stage: 'COUNT', inputStage: stage };
  return { queryPlanner: { namespace: `${ctx.database}.${name}`, winningPlan: stage, rejectedPlans: [] }, ok: 1 };
}

export function explain(ctx: StoreContext, cmd: Doc): Doc {
  const inner = cmd.explain;
  if (!isDoc(inner)) refuse('BadValue', 'explain needs a command document, e.g. {explain: {find: "items", filter: {name: "x"}}}');
  const command = Object.keys(inner)[0];
  switch (command) {
    case 'find':
      return plan(ctx, inner, 'find', parseFilter(inner.filter, 'find: filter'), parseSort(inner.sort, 'find: sort'), optionalCount(inner, 'limit', 'find'));
    case 'count':
      return plan(ctx, inner, 'count', parseFilter(inner.query, 'count: query'), [], undefined);
    case 'aggregate': {
      const stages = parsePipeline(inner.pipeline, 'aggregate: pipeline');
      // Only the leading $match stages (and a $sort right after them) reach the collection scan.
      const filter: ParsedFilter = [];
      let i = 0;
      for (; i < stages.length; i++) {
        const s = stages[i];
        if (s?.kind !== 'match') break;
        filter.push(...s.filter);
      }
      const next = stages[i];
      const sort = next?.kind === 'sort' ? next.keys : [];
      return plan(ctx, inner, 'aggregate', filter, sort, undefined, (collation) => checkForeignViews(ctx, stages, collation, 'aggregate'));
    }
    default:
      return refuse('BadValue', `explain supports find, count and aggregate, not ${String(command)}`);
  }
}
