/**
 * Aggregation pipelines: `$match`, `$sort`, `$limit`, `$skip`, `$project`, `$lookup`,
 * `$graphLookup`. The whole pipeline runs with the operation's one collation; a `$lookup` or
 * `$graphLookup` from a view needs that view's collation to be the same (part F, Errors 2).
 */
import type { Collation } from '../types.js';
import { collationsEqual, describeCollation } from './collations.js';
import { keyEquality, sortCollator, type StoreContext } from './context.js';
import { matches, parseFilter, type ParsedFilter } from './filter.js';
import { splitPath, valuesAtPath } from './paths.js';
import { refuse } from './refusal.js';
import { collatorOrder, parseProjection, parseSort, project, sortDocs, type Projection, type SortKey } from './sort-project.js';
import { compareValues, isDoc, type Doc } from './values.js';

export type Stage =
  | { kind: 'match'; filter: ParsedFilter }
  | { kind: 'sort'; keys: SortKey[] }
  | { kind: 'limit'; n: number }
  | { kind: 'skip'; n: number }
  | { kind: 'project'; projection: Projection | undefined }
  | { kind: 'lookup'; from: string; localField: string; foreignField: string; as: string }
  | { kind: 'graphLookup'; from: string; startWith: unknown; connectFromField: string; connectToField: string; as: string; maxDepth: number | undefined };

/** What a `$lookup` finds when it reads another namespace. */
export interface ForeignSource {
  docs: Doc[];
  /** The view's default collation when the namespace is a view; undefined for a collection. */
  viewCollation: Collation | undefined;
}

export type ReadNamespace = (name: string) => ForeignSource;

const STAGES = ['$match', '$sort', '$limit', '$skip', '$project', '$lookup', '$graphLookup'];

function str(doc: Doc, field: string, where: string): string {
  const v = doc[field];
  if (typeof v !== 'string' || v === '') refuse('FailedToParse', `${where} needs "${field}" as a non-empty string`);
  return v;
}

function count(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) refuse('BadValue', `${where} needs a non-negative integer`);
  return v;
}

export function parsePipeline(pipeline: unknown, where: string): Stage[] {
  if (!Array.isArray(pipeline)) refuse('TypeMismatch', `${where} must be an array of stages such as [{$match: {name: "x"}}]`);
  return pipeline.map((raw, i) => {
    const at = `${where}[${i}]`;
    if (!isDoc(raw) || Object.keys(raw).length !== 1) refuse('FailedToParse', `${at} must be a document with exactly one stage name; supported: ${STAGES.join(', ')}`);
    const [name, body] = Object.entries(raw)[0] ?? ['', undefined];
    switch (name) {
      case '$match':
        return { kind: 'match', filter: parseFilter(body, `${at}.$match`) };
      case '$sort': {
        const keys = parseSort(body, `${at}.$sort`);
        if (keys.length === 0) refuse('BadValue', `${at}.$sort needs at least one key`);
        return { kind: 'sort', keys };
      }
      case '$limit':
        return { kind: 'limit', n: count(body, `${at}.$limit`) };
      case '$skip':
        return { kind: 'skip', n: count(body, `${at}.$skip`) };
      case '$project':
        return { kind: 'project', projection: parseProjection(body, `${at}.$project`) };
      case '$lookup': {
        if (!isDoc(body)) refuse('FailedToParse', `${at}.$lookup must be {from, localField, foreignField, as}`);
        const w = `${at}.$lookup`;
        return { kind: 'lookup', from: str(body, 'from', w), localField: str(body, 'localField', w), foreignField: str(body, 'foreignField', w), as: str(body, 'as', w) };
      }
      case '$graphLookup': {
        if (!isDoc(body)) refuse('FailedToParse', `${at}.$graphLookup must be {from, startWith, connectFromField, connectToField, as}`);
        const w = `${at}.$graphLookup`;
        if (!Object.hasOwn(body, 'startWith')) refuse('FailedToParse', `${w} needs "startWith" (a "$field" path or a value)`);
        return {
          kind: 'graphLookup',
          from: str(body, 'from', w),
          startWith: body.startWith,
          connectFromField: str(body, 'connectFromField', w),
          connectToField: str(body, 'connectToField', w),
          as: str(body, 'as', w),
          maxDepth: body.maxDepth === undefined ? undefined : count(body.maxDepth, `${w}.maxDepth`),
        };
      }
      default:
        return refuse('FailedToParse', `${at}: unrecognized pipeline stage ${name}; supported: ${STAGES.join(', ')}`);
    }
  });
}

/** The namespaces a pipeline reads besides its source. */
export function foreignNames(stages: readonly Stage[]): string[] {
  return stages.flatMap((s) => (s.kind === 'lookup' || s.kind === 'graphLookup' ? [s.from] : []));
}

/** Refuses a lookup from a view whose collation is not the operation's (part F, Errors 2). */
export function checkForeignViews(ctx: StoreContext, stages: readonly Stage[], collation: Collation, where: string): void {
  if (ctx.faults.lookupAcrossCollationsAccepted === true) return;
  for (const from of foreignNames(stages)) {
    const ns = ctx.namespaces.get(from);
    if (ns?.kind === 'view' && !collationsEqual(ns.collation.collation, collation)) {
      refuse(
        'OptionNotSupportedOnView',
        `${where}: the view "${from}" has the collation ${describeCollation(ns.collation.collation)}, but this aggregation uses ${describeCollation(collation)}; every view an aggregation reads must have the same collation`,
      );
    }
  }
}

function flatValues(doc: Doc, path: string): unknown[] {
  return valuesAtPath(doc, splitPath(path)).flatMap((v) => (Array.isArray(v) ? v : [v]));
}

function equalUnder(ctx: StoreContext, collation: Collation): (a: unknown, b: unknown) => boolean {
  const collator = ctx.collations.collator(collation);
  return (a, b) => (typeof a === 'string' && typeof b === 'string' ? collator.equals(a, b) : compareValues(a, b, collatorOrder(collator)) === 0);
}

function lookup(ctx: StoreContext, s: Extract<Stage, { kind: 'lookup' }>, docs: Doc[], read: ReadNamespace, collation: Collation): Doc[] {
  const foreign = read(s.from).docs;
  const eq = equalUnder(ctx, collation);
  return docs.map((doc) => {
    const local = flatValues(doc, s.localField);
    const localValues = local.length === 0 ? [null] : local;
    const joined = foreign.filter((f) => {
      const theirs = flatValues(f, s.foreignField);
      const their = theirs.length === 0 ? [null] : theirs;
      return their.some((t) => localValues.some((l) => eq(l, t)));
    });
    return { ...doc, [s.as]: structuredClone(joined) };
  });
}

function graphLookup(ctx: StoreContext, s: Extract<Stage, { kind: 'graphLookup' }>, docs: Doc[], read: ReadNamespace, collation: Collation): Doc[] {
  const foreign = read(s.from).docs;
  const eq = equalUnder(ctx, collation);
  return docs.map((doc) => {
    const start = typeof s.startWith === 'string' && s.startWith.startsWith('$') ? flatValues(doc, s.startWith.slice(1)) : Array.isArray(s.startWith) ? s.startWith : [s.startWith];
    const found = new Set<number>();
    let frontier = start;
    for (let depth = 0; frontier.length > 0 && (s.maxDepth === undefined || depth <= s.maxDepth); depth++) {
      const next: unknown[] = [];
      foreign.forEach((f, i) => {
        if (found.has(i)) return;
        if (flatValues(f, s.connectToField).some((t) => frontier.some((v) => eq(v, t)))) {
          found.add(i);
          next.push(...flatValues(f, s.connectFromField));
        }
      });
      frontier = next;
    }
    return { ...doc, [s.as]: [...found].sort((a, b) => a - b).map((i) => structuredClone(foreign[i])) };
  });
}

/** Runs parsed stages over documents with one collation. */
export function runPipeline(ctx: StoreContext, stages: readonly Stage[], input: Doc[], collation: Collation, read: ReadNamespace): Doc[] {
  const collator = ctx.collations.collator(collation);
  const keys = keyEquality(ctx, collator);
  let docs = input;
  for (const s of stages) {
    switch (s.kind) {
      case 'match':
        docs = docs.filter((d) => matches(d, s.filter, collator, keys));
        break;
      case 'sort':
        docs = sortDocs(docs, s.keys, collatorOrder(sortCollator(ctx, collator)));
        break;
      case 'limit':
        docs = s.n === 0 ? docs : docs.slice(0, s.n);
        break;
      case 'skip':
        docs = docs.slice(s.n);
        break;
      case 'project':
        docs = docs.map((d) => project(d, s.projection));
        break;
      case 'lookup':
        docs = lookup(ctx, s, docs, read, collation);
        break;
      case 'graphLookup':
        docs = graphLookup(ctx, s, docs, read, collation);
        break;
    }
  }
  return docs;
}
