/**
 * `insert`, `update` and `delete`. Each update or delete statement matches with its own
 * collation, else the collection's default (part F, Endpoints 3). Writes to a view are refused.
 */
import type { Collation } from '../types.js';
import { docArray, nameArg, optionalBool } from './args.js';
import { newCollection, type Collection } from './catalog.js';
import { SIMPLE } from './collations.js';
import { keyEquality, type StoreContext } from './context.js';
import { matches, parseFilter, type ParsedFilter } from './filter.js';
import { setPath } from './paths.js';
import { CODES, refuse } from './refusal.js';
import { clone, isDoc, sameValue, type Doc } from './values.js';
import { duplicateMessage, findDuplicate } from './unique.js';

/** The collection a write goes to, created (simple) when missing; a view is refused. */
function target(ctx: StoreContext, name: string, command: string, create: boolean): Collection | undefined {
  const ns = ctx.namespaces.get(name);
  if (ns?.kind === 'view') refuse('CommandNotSupportedOnView', `${command}: "${name}" is a view; write to the collection it reads ("${ns.viewOn}")`);
  if (ns !== undefined || !create) return ns;
  const made = newCollection(name, SIMPLE);
  ctx.namespaces.set(name, made);
  return made;
}

function writeError(ctx: StoreContext, coll: Collection, index: number, dup: NonNullable<ReturnType<typeof findDuplicate>>): Doc {
  return { index, code: CODES.DuplicateKey, codeName: 'DuplicateKey', errmsg: duplicateMessage(ctx, coll, dup) };
}

export function insert(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'insert');
  const documents = docArray(cmd, 'documents', 'insert');
  const coll = target(ctx, name, 'insert', true) as Collection;
  let n = 0;
  for (const [i, raw] of documents.entries()) {
    const doc = Object.hasOwn(raw, '_id') ? clone(raw) : { _id: ctx.nextId(), ...clone(raw) };
    const dup = findDuplicate(ctx, coll, doc);
    // Ordered semantics: the first failing document stops the batch.
    if (dup !== undefined) return { n, writeErrors: [writeError(ctx, coll, i, dup)], ok: 1 };
    coll.docs.push(doc);
    n++;
  }
  return { n, ok: 1 };
}

/** A statement's collation: its own, else the collection's default. */
function statementCollation(ctx: StoreContext, coll: Collection | undefined, written: unknown, where: string): Collation {
  const own = ctx.collations.parseOptional(written, `${where}: collation`);
  if (own !== undefined && ctx.faults.bulkStatementCollationIgnored !== true) return own.collation;
  if (ctx.faults.operationIgnoresCollectionDefault === true) return 'simple';
  return (coll?.collation ?? SIMPLE).collation;
}

type Change = { kind: 'set'; fields: Doc } | { kind: 'replace'; doc: Doc };

function parseChange(u: unknown, multi: boolean, where: string): Change {
  if (!isDoc(u)) refuse('FailedToParse', `${where}: "u" must be {$set: {...}} or a replacement document`);
  const keys = Object.keys(u);
  const ops = keys.filter((k) => k.startsWith('$'));
  if (ops.length === 0) {
    if (multi) refuse('FailedToParse', `${where}: a replacement document cannot be applied with multi: true; use {$set: {...}}`);
    return { kind: 'replace', doc: u };
  }
  if (ops.length !== keys.length || keys.some((k) => k !== '$set') || !isDoc(u.$set)) {
    refuse('FailedToParse', `${where}: the only update operator supported is $set, as {$set: {field: value}}`);
  }
  return { kind: 'set', fields: u.$set };
}

function applyChange(doc: Doc, change: Change): Doc {
  if (change.kind === 'replace') return { _id: doc._id, ...clone(change.doc) };
  const out = clone(doc);
  for (const [path, v] of Object.entries(change.fields)) setPath(out, path, clone(v));
  return out;
}

/** The document an upsert inserts: the equality fields of its query, then the change. */
function upsertSeed(filter: ParsedFilter): Doc {
  const seed: Doc = {};
  for (const p of filter) {
    const eq = p.conditions.find((c) => c.op === '$eq');
    if (eq !== undefined && p.conditions.length === 1) setPath(seed, p.path, clone(eq.value));
  }
  return seed;
}

export function update(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'update');
  const raw = docArray(cmd, 'updates', 'update');
  let coll = target(ctx, name, 'update', false);
  // Every statement is checked before any runs, so a bad one changes nothing.
  const statements = raw.map((s, i) => {
    const where = `update: updates[${i}]`;
    const multi = optionalBool(s, 'multi', where);
    return { q: parseFilter(s.q ?? {}, `${where}.q`), change: parseChange(s.u, multi, where), multi, upsert: optionalBool(s, 'upsert', where), collation: statementCollation(ctx, coll, s.collation, where) };
  });
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  for (const [i, s] of statements.entries()) {
    const collator = ctx.collations.collator(s.collation);
    const keys = keyEquality(ctx, collator);
    const hits = (coll?.docs ?? []).filter((d) => matches(d, s.q, collator, keys));
    const chosen = s.multi ? hits : hits.slice(0, 1);
    for (const doc of chosen) {
      const next = applyChange(doc, s.change);
      const c = coll as Collection;
      const dup = findDuplicate(ctx, c, next, doc);
      if (dup !== undefined) return { n, nModified, writeErrors: [writeError(ctx, c, i, dup)], ok: 1 };
      n++;
      if (!sameValue(doc, next)) {
        nModified++;
        c.docs[c.docs.indexOf(doc)] = next;
      }
    }
    if (chosen.length === 0 && s.upsert) {
      coll ??= target(ctx, name, 'update', true) as Collection;
      const seeded = applyChange(upsertSeed(s.q), s.change);
      const doc = Object.hasOwn(seeded, '_id') && seeded._id !== undefined ? seeded : { ...seeded, _id: ctx.nextId() };
      const dup = findDuplicate(ctx, coll, doc);
      if (dup !== undefined) return { n, nModified, writeErrors: [writeError(ctx, coll, i, dup)], ok: 1 };
      coll.docs.push(doc);
      n++;
      upserted.push({ index: i, _id: clone(doc._id) });
    }
  }
  return upserted.length > 0 ? { n, nModified, upserted, ok: 1 } : { n, nModified, ok: 1 };
}

export function remove(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'delete');
  const raw = docArray(cmd, 'deletes', 'delete');
  const coll = target(ctx, name, 'delete', false);
  const statements = raw.map((s, i) => {
    const where = `delete: deletes[${i}]`;
    if (s.limit !== 0 && s.limit !== 1) refuse('FailedToParse', `${where} needs "limit": 0 (every match) or 1 (the first match)`);
    return { q: parseFilter(s.q ?? {}, `${where}.q`), limit: s.limit, collation: statementCollation(ctx, coll, s.collation, where) };
  });
  let n = 0;
  for (const s of statements) {
    if (coll === undefined) break;
    const collator = ctx.collations.collator(s.collation);
    const keys = keyEquality(ctx, collator);
    const hits = coll.docs.filter((d) => matches(d, s.q, collator, keys));
    const gone = new Set(s.limit === 1 ? hits.slice(0, 1) : hits);
    coll.docs = coll.docs.filter((d) => !gone.has(d));
    n += gone.size;
  }
  return { n, ok: 1 };
}
