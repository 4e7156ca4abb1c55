/**
 * Reading a namespace: a collection's documents, or a view's (its source read, then its pipeline
 * run with the view's collation), and the collation an operation on it uses.
 */
import type { Collection, View } from './catalog.js';
import { collationsEqual, describeCollation, SIMPLE, type StoredCollation } from './collations.js';
import type { StoreContext } from './context.js';
import type { ParsedFilter } from './filter.js';
import { parsePipeline, runPipeline, type ReadNamespace } from './pipeline.js';
import { refuse } from './refusal.js';
import { clone, type Doc } from './values.js';

export interface Source {
  name: string;
  docs: Doc[];
  /** The default collation of the namespace: a view's, a collection's, or simple when it does not exist. */
  defaultCollation: StoredCollation;
  /** Set when the namespace is a view. */
  view: View | undefined;
  /** The collection at the bottom of the view chain, when it exists. */
  base: Collection | undefined;
  /** Predicates of the views' leading `$match` stages, which a plan can apply to the base collection. */
  pushedFilter: ParsedFilter;
  /** Whether every view stage was a `$match`, so the operation's own filter reaches the base collection too. */
  pushable: boolean;
}

export function readSource(ctx: StoreContext, name: string, seen: ReadonlySet<string> = new Set()): Source {
  const ns = ctx.namespaces.get(name);
  if (ns === undefined) return { name, docs: [], defaultCollation: SIMPLE, view: undefined, base: undefined, pushedFilter: [], pushable: true };
  if (ns.kind === 'collection') {
    return { name, docs: ns.docs.map(clone), defaultCollation: ns.collation, view: undefined, base: ns, pushedFilter: [], pushable: true };
  }
  if (seen.has(name)) refuse('BadValue', `the view "${name}" is defined on itself through other views; drop one of them`);
  const inner = readSource(ctx, ns.viewOn, new Set([...seen, name]));
  const stages = parsePipeline(ns.pipeline, `the pipeline of view "${name}"`);
  const docs = runPipeline(ctx, stages, inner.docs, ns.collation.collation, foreignReader(ctx, new Set([...seen, name])));
  const pushedFilter = [...inner.pushedFilter];
  let pushable = inner.pushable;
  for (const s of stages) {
    if (s.kind !== 'match' || !pushable) {
      pushable = false;
      break;
    }
    pushedFilter.push(...s.filter);
  }
  return { name, docs, defaultCollation: ns.collation, view: ns, base: inner.base, pushedFilter, pushable };
}

export function foreignReader(ctx: StoreContext, seen: ReadonlySet<string> = new Set()): ReadNamespace {
  return (name) => {
    const s = readSource(ctx, name, seen);
    return { docs: s.docs, viewCollation: s.view?.collation.collation };
  };
}

/**
 * The operation's one collation: the one it names, else the namespace's default. On a view, a
 * named collation other than the view's is refused (part F, Errors 2).
 */
export function operationCollation(ctx: StoreContext, src: Source, written: unknown, where: string): StoredCollation {
  if (written === undefined) {
    if (src.view !== undefined) return src.view.collation;
    return ctx.faults.operationIgnoresCollectionDefault === true ? SIMPLE : src.defaultCollation;
  }
  const named = ctx.collations.parse(written, `${where}: collation`);
  if (src.view !== undefined && !collationsEqual(named.collation, src.view.collation.collation) && ctx.faults.viewOverrideAccepted !== true) {
    refuse(
      'OptionNotSupportedOnView',
      `${where}: the view "${src.name}" has the default collation ${describeCollation(src.view.collation.collation)}; an operation on it cannot use ${describeCollation(named.collation)} — leave "collation" out or name the view's own`,
    );
  }
  return named;
}
