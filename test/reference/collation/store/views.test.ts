import { describe, expect, it } from 'vitest';
import type { StoreFaults } from '../../../../reference/collation/store/index.js';
import { EN2, FR2, SIMPLE_DOC, makeStore, names, run, seedWords } from './stand-in.js';

/** A collection with a case-insensitive default, a simple view and an en view on it. */
function fixture(faults: StoreFaults = {}) {
  const store = makeStore(faults);
  seedWords(store, 'c', ['apple', 'Apple', 'banana'], EN2);
  run(store, { create: 'v', viewOn: 'c', pipeline: [] });
  run(store, { create: 'v2', viewOn: 'c', pipeline: [], collation: EN2 });
  return store;
}

describe('a view\'s default collation', () => {
  it('is simple when the view names none, not the collection\'s', () => {
    const store = fixture();
    expect(names(run(store, { find: 'v', filter: { name: 'apple' } }))).toEqual(['apple']);
    const listed = run(store, { listCollections: 1, filter: { name: 'v' } });
    expect((listed.cursor as { firstBatch: Array<{ options: Record<string, unknown> }> }).firstBatch[0]?.options).toEqual({ viewOn: 'c', pipeline: [] });
  });

  it('is inherited from the collection under the fault viewInheritsCollectionCollation', () => {
    const store = fixture({ viewInheritsCollectionCollation: true });
    expect(names(run(store, { find: 'v', filter: { name: 'apple' } }))).toEqual(['apple', 'Apple']);
  });

  it('is the one named at creation, and the view\'s own pipeline runs with it', () => {
    const store = fixture();
    run(store, { create: 'picked_en', viewOn: 'c', pipeline: [{ $match: { name: 'APPLE' } }], collation: EN2 });
    run(store, { create: 'picked_simple', viewOn: 'c', pipeline: [{ $match: { name: 'APPLE' } }] });
    expect(names(run(store, { find: 'picked_en' }))).toEqual(['apple', 'Apple']);
    expect(names(run(store, { find: 'picked_simple' }))).toEqual([]);
    expect(names(run(store, { find: 'v2', filter: { name: 'APPLE' } }))).toEqual(['apple', 'Apple']);
    expect(run(store, { count: 'v2', query: { name: 'APPLE' } }).n).toBe(2);
  });
});

describe('an operation on a view that names another collation', () => {
  it('is refused for find, count, distinct, aggregate and explain', () => {
    const store = fixture();
    for (const cmd of [
      { find: 'v2', filter: {}, collation: FR2 },
      { find: 'v2', collation: SIMPLE_DOC },
      { find: 'v', collation: EN2 },
      { count: 'v2', collation: FR2 },
      { distinct: 'v2', key: 'name', collation: FR2 },
      { aggregate: 'v2', pipeline: [], cursor: {}, collation: FR2 },
      { explain: { find: 'v2', filter: { name: 'a' }, collation: FR2 } },
    ]) {
      const reply = store.command(cmd);
      expect(reply, JSON.stringify(cmd)).toMatchObject({ ok: 0, code: 167, codeName: 'OptionNotSupportedOnView' });
      expect(String(reply.errmsg)).toMatch(/cannot use/);
    }
  });

  it('is accepted when it names the view\'s own collation', () => {
    const store = fixture();
    expect(names(run(store, { find: 'v2', filter: { name: 'APPLE' }, collation: EN2 }))).toEqual(['apple', 'Apple']);
    expect(names(run(store, { find: 'v', filter: { name: 'APPLE' }, collation: SIMPLE_DOC }))).toEqual([]);
  });

  it('runs with the named collation under the fault viewOverrideAccepted', () => {
    const store = fixture({ viewOverrideAccepted: true });
    expect(names(run(store, { find: 'v', filter: { name: 'APPLE' }, collation: EN2 }))).toEqual(['apple', 'Apple']);
  });
});

describe('a view on a view', () => {
  it('cannot name a collation other than its source view\'s', () => {
    const store = fixture();
    expect(store.command({ create: 'w', viewOn: 'v', collation: EN2 })).toMatchObject({ ok: 0, code: 167 });
    expect(store.command({ create: 'w', viewOn: 'v2', collation: FR2 })).toMatchObject({ ok: 0, code: 167 });
    // Naming none means simple, which differs from an en source view.
    expect(store.command({ create: 'w', viewOn: 'v2' })).toMatchObject({ ok: 0, code: 167 });
    expect(run(store, { listCollections: 1, filter: { name: 'w' } }).cursor).toMatchObject({ firstBatch: [] });
  });

  it('may name the same collation, or none on a simple source', () => {
    const store = fixture();
    run(store, { create: 'w', viewOn: 'v2', collation: EN2 });
    run(store, { create: 'w2', viewOn: 'v' });
    expect(names(run(store, { find: 'w', filter: { name: 'APPLE' } }))).toEqual(['apple', 'Apple']);
    expect(names(run(store, { find: 'w2', filter: { name: 'APPLE' } }))).toEqual([]);
  });

  it('is created with another collation under the fault viewOnViewOtherCollationAccepted', () => {
    const store = fixture({ viewOnViewOtherCollationAccepted: true });
    run(store, { create: 'w', viewOn: 'v', collation: EN2 });
    expect(names(run(store, { find: 'w', filter: { name: 'APPLE' } }))).toEqual(['apple', 'Apple']);
  });
});

describe('$lookup and $graphLookup over views', () => {
  const lookup = (from: string) => ({ $lookup: { from, localField: 'name', foreignField: 'name', as: 'same' } });
  const graph = (from: string) => ({ $graphLookup: { from, startWith: '$name', connectFromField: 'name', connectToField: 'name', as: 'same' } });

  it('are refused when the view\'s collation differs from the operation\'s', () => {
    const store = fixture();
    for (const stage of [lookup('v'), graph('v')]) {
      expect(store.command({ aggregate: 'c', pipeline: [stage], cursor: {} })).toMatchObject({ ok: 0, code: 167 });
      expect(store.command({ aggregate: 'v', pipeline: [stage], cursor: {}, collation: SIMPLE_DOC })).toMatchObject({ ok: 1 });
      expect(store.command({ aggregate: 'v2', pipeline: [stage], cursor: {} })).toMatchObject({ ok: 0, code: 167 });
    }
  });

  it('join with the one collation when the views agree', () => {
    const store = fixture();
    const reply = run(store, { aggregate: 'v2', pipeline: [{ $match: { name: 'banana' } }, lookup('v2')], cursor: {} });
    const [doc] = (reply.cursor as { firstBatch: Array<{ same: unknown[] }> }).firstBatch;
    expect(doc?.same).toHaveLength(1);
    const apples = run(store, { aggregate: 'c', pipeline: [{ $match: { name: 'apple' } }, lookup('v2')], cursor: {} });
    // The collection's en default matches both "apple" documents of the view, for each of them.
    expect((apples.cursor as { firstBatch: Array<{ same: unknown[] }> }).firstBatch.map((d) => d.same.length)).toEqual([2, 2]);
    const graphed = run(store, { aggregate: 'v2', pipeline: [{ $match: { _id: 1 } }, graph('v2')], cursor: {} });
    expect((graphed.cursor as { firstBatch: Array<{ same: unknown[] }> }).firstBatch[0]?.same).toHaveLength(2);
  });

  it('from a collection use the operation\'s collation', () => {
    const store = fixture();
    seedWords(store, 'plain', ['APPLE']);
    const reply = run(store, { aggregate: 'c', pipeline: [{ $match: { _id: 3 } }, { $lookup: { from: 'plain', localField: 'name', foreignField: 'name', as: 'x' } }], cursor: {} });
    expect((reply.cursor as { firstBatch: Array<{ x: unknown[] }> }).firstBatch[0]?.x).toEqual([]);
    const apples = run(store, { aggregate: 'c', pipeline: [{ $match: { _id: 1 } }, { $lookup: { from: 'plain', localField: 'name', foreignField: 'name', as: 'x' } }], cursor: {} });
    expect((apples.cursor as { firstBatch: Array<{ x: unknown[] }> }).firstBatch[0]?.x).toHaveLength(1);
  });

  it('are refused in a view\'s pipeline when they read a view with another collation', () => {
    const store = fixture();
    expect(store.command({ create: 'joined', viewOn: 'c', pipeline: [lookup('v')], collation: EN2 })).toMatchObject({ ok: 0, code: 167 });
    run(store, { create: 'joined', viewOn: 'c', pipeline: [lookup('v2')], collation: EN2 });
  });

  it('are accepted under the fault lookupAcrossCollationsAccepted', () => {
    const store = fixture({ lookupAcrossCollationsAccepted: true });
    run(store, { aggregate: 'c', pipeline: [lookup('v')], cursor: {} });
    run(store, { aggregate: 'c', pipeline: [graph('v')], cursor: {} });
    run(store, { create: 'joined', viewOn: 'c', pipeline: [lookup('v')], collation: EN2 });
  });
});
