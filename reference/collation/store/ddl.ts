/**
 * `create` (collections and views), `drop`, `createIndexes`, `listCollections`, `listIndexes`.
 * A view's default collation is fixed at creation, simple when it names none, never inherited
 * (part F, "Collation and indexes" 6); a view on a view cannot name a different collation
 * (Errors 2); an index takes the collection's default unless it names one.
 */
import { nameArg, optionalBool } from './args.js';
import { keyDocument, newCollection, SIMPLE_ONLY_KEY_TYPES, type IndexKeyType, type IndexSpec, type View } from './catalog.js';
import { collationsEqual, describeCollation, SIMPLE, type StoredCollation } from './collations.js';
import type { StoreContext } from './context.js';
import { matches, parseFilter } from './filter.js';
import { checkForeignViews, parsePipeline } from './pipeline.js';
import { refuse } from './refusal.js';
import { findDuplicate, duplicateMessage } from './unique.js';
import { clone, isDoc, type Doc } from './values.js';

/**
 * Checks a view's definition (on create, and on collMod): a view on a view has exactly the
 * source view's collation, the views its pipeline looks up share the view's collation, and the
 * view never reads itself. Refuses what breaks a rule; returns the parsed pipeline.
 */
export function checkViewDefinition(ctx: StoreContext, name: string, viewOn: unknown, pipeline: unknown, collation: StoredCollation, where: string): string {
  if (typeof viewOn !== 'string' || viewOn === '') refuse('BadValue', `${where}: "viewOn" must name the source collection or view`);
  const stages = parsePipeline(pipeline, `${where}: pipeline`);
  const source = ctx.namespaces.get(viewOn);
  if (source?.kind === 'view' && !collationsEqual(source.collation.collation, collation.collation) && ctx.faults.viewOnViewOtherCollationAccepted !== true) {
    refuse(
      'OptionNotSupportedOnView',
      `${where}: the view "${name}" would have the collation ${describeCollation(collation.collation)}, but its source view "${viewOn}" has ${describeCollation(source.collation.collation)}; a view on a view must have the same collation (name it, or leave it out when the source is simple)`,
    );
  }
  // The view's pipeline runs with its own collation, so the views it looks up must share it.
  checkForeignViews(ctx, stages, collation.collation, `${where}: the pipeline of view "${name}"`);
  for (let at: string | undefined = viewOn, hops = 0; at !== undefined; hops++) {
    if (at === name || hops > 100) refuse('BadValue', `${where}: the view "${name}" would read itself through "${viewOn}"`);
    const ns = ctx.namespaces.get(at);
    at = ns?.kind === 'view' ? ns.viewOn : undefined;
  }
  return viewOn;
}

function createView(ctx: StoreContext, name: string, cmd: Doc): Doc {
  const pipeline = cmd.pipeline ?? [];
  const source = typeof cmd.viewOn === 'string' ? ctx.namespaces.get(cmd.viewOn) : undefined;
  const named = ctx.collations.parseOptional(cmd.collation, 'create: collation');
  const inherited = ctx.faults.viewInheritsCollectionCollation === true ? source?.collation : undefined;
  const collation: StoredCollation = named ?? inherited ?? SIMPLE;
  const viewOn = checkViewDefinition(ctx, name, cmd.viewOn, pipeline, collation, 'create');
  const view: View = { kind: 'view', name, viewOn, pipeline: clone(pipeline as Doc[]), collation };
  ctx.namespaces.set(name, view);
  return { ok: 1 };
}

export function create(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'create');
  if (ctx.namespaces.has(name)) refuse('NamespaceExists', `create: "${name}" already exists; drop it first or use another name`);
  if (cmd.viewOn !== undefined) return createView(ctx, name, cmd);
  if (cmd.pipeline !== undefined) refuse('InvalidOptions', 'create: "pipeline" needs "viewOn" (the source of the view)');
  ctx.namespaces.set(name, newCollection(name, ctx.collations.parseOptional(cmd.collation, 'create: collation') ?? SIMPLE));
  return { ok: 1 };
}

export function drop(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'drop');
  ctx.namespaces.delete(name);
  return { ok: 1 };
}

const KEY_TYPES: readonly unknown[] = [1, -1, 'text', '2d', '2dsphere', 'geoHaystack', 'hashed'];

function parseIndex(ctx: StoreContext, raw: Doc, defaultCollation: StoredCollation, where: string): IndexSpec {
  const key = raw.key;
  if (!isDoc(key) || Object.keys(key).length === 0) refuse('FailedToParse', `${where}: "key" must be a document such as {name: 1}`);
  const fields = Object.entries(key).map(([f, t]): [string, IndexKeyType] => {
    if (!KEY_TYPES.includes(t)) refuse('CannotCreateIndex', `${where}: the key "${f}" must be 1, -1, "text", "2d", "2dsphere", "geoHaystack" or "hashed"`);
    return [f, t as IndexKeyType];
  });
  const name = raw.name;
  if (typeof name !== 'string' || name === '') refuse('FailedToParse', `${where}: "name" must be a non-empty string`);
  const named = ctx.collations.parseOptional(raw.collation, `${where}: collation`);
  const collation = named ?? (ctx.faults.indexIgnoresCollectionDefault === true ? SIMPLE : defaultCollation);
  const special = fields.find(([, t]) => SIMPLE_ONLY_KEY_TYPES.includes(t));
  if (special !== undefined && collation.collation !== 'simple' && ctx.faults.textIndexWithoutSimpleAccepted !== true) {
    refuse(
      'CannotCreateIndex',
      `${where}: a "${String(special[1])}" index supports only simple binary comparison; on a collection with a non-simple default collation give it collation: {locale: "simple"}`,
    );
  }
  return { name, key: fields, collation, unique: optionalBool(raw, 'unique', where) };
}

const sameIndex = (a: IndexSpec, b: IndexSpec): boolean =>
  JSON.stringify(keyDocument(a)) === JSON.stringify(keyDocument(b)) && collationsEqual(a.collation.collation, b.collation.collation);

export function createIndexes(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'createIndexes');
  const existing = ctx.namespaces.get(name);
  if (existing?.kind === 'view') refuse('CommandNotSupportedOnView', `createIndexes: "${name}" is a view; index the collection it reads ("${existing.viewOn}")`);
  const raw = cmd.indexes;
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every(isDoc)) refuse('BadValue', 'createIndexes needs "indexes" as a non-empty array of {key, name, collation?, unique?}');
  const coll = existing ?? newCollection(name, SIMPLE);
  const specs = raw.map((r, i) => parseIndex(ctx, r, coll.collation, `createIndexes: indexes[${i}]`));
  const before = coll.indexes.length;
  const added: IndexSpec[] = [];
  for (const spec of specs) {
    const byName = [...coll.indexes, ...added].find((i) => i.name === spec.name);
    if (byName !== undefined) {
      if (sameIndex(byName, spec) && byName.unique === spec.unique) continue;
      refuse(sameIndex(byName, spec) ? 'IndexOptionsConflict' : 'IndexKeySpecsConflict', `createIndexes: an index named "${spec.name}" already exists with other keys or options; use another name`);
    }
    const twin = [...coll.indexes, ...added].find((i) => sameIndex(i, spec));
    if (twin !== undefined) refuse('IndexOptionsConflict', `createIndexes: the index "${twin.name}" already has these keys and this collation`);
    for (const doc of coll.docs) {
      const dup = findDuplicate(ctx, coll, doc, doc, [spec]);
      if (dup !== undefined) refuse('DuplicateKey', `createIndexes: ${duplicateMessage(ctx, coll, dup)}`);
    }
    added.push(spec);
  }
  coll.indexes.push(...added);
  if (existing === undefined) ctx.namespaces.set(name, coll);
  return { createdCollectionAutomatically: existing === undefined, numIndexesBefore: before, numIndexesAfter: coll.indexes.length, ok: 1 };
}

export function listCollections(ctx: StoreContext, cmd: Doc): Doc {
  const filter = parseFilter(cmd.filter, 'listCollections: filter');
  const simple = ctx.collations.collator('simple');
  const entries = [...ctx.namespaces.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((ns): Doc => {
      const options: Doc = ns.kind === 'view' ? { viewOn: ns.viewOn, pipeline: clone(ns.pipeline) } : {};
      const echo = ctx.collations.echo(ns.collation);
      if (echo !== undefined) options.collation = echo;
      return { name: ns.name, type: ns.kind, options };
    })
    .filter((e) => matches(e, filter, simple));
  return { cursor: { firstBatch: entries, id: 0, ns: `${ctx.database}.$cmd.listCollections` }, ok: 1 };
}

export function listIndexes(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'listIndexes');
  const ns = ctx.namespaces.get(name);
  if (ns === undefined) refuse('NamespaceNotFound', `listIndexes: there is no collection "${name}"`);
  if (ns.kind === 'view') refuse('CommandNotSupportedOnView', `listIndexes: "${name}" is a view, which has no indexes`);
  const entries = ns.indexes.map((i): Doc => {
    const e: Doc = { v: 2, key: keyDocument(i), name: i.name };
    if (i.unique && i.name !== '_id_') e.unique = true;
    const echo = ctx.collations.echo(i.collation);
    if (echo !== undefined) e.collation = echo;
    return e;
  });
  return { cursor: { firstBatch: entries, id: 0, ns: `${ctx.database}.${name}` }, ok: 1 };
}
