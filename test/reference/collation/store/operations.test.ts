import { describe, expect, it } from 'vitest';
import { EN1, EN2, SIMPLE_DOC, batch, makeStore, names, run, seedWords } from './stand-in.js';

describe('the operation\'s collation', () => {
  it('is the collection\'s default when the operation names none', () => {
    const store = makeStore();
    seedWords(store, 'c', ['apple', 'Apple', 'banana'], EN2);
    expect(names(run(store, { find: 'c', filter: { name: 'APPLE' } }))).toEqual(['apple', 'Apple']);
    expect(names(run(store, { find: 'c', filter: { name: 'APPLE' }, collation: SIMPLE_DOC }))).toEqual([]);
    expect(run(store, { count: 'c', query: { name: 'apple' }, collation: SIMPLE_DOC }).n).toBe(1);
  });

  it('is simple for a collection with a default under the fault operationIgnoresCollectionDefault', () => {
    const store = makeStore({ operationIgnoresCollectionDefault: true });
    seedWords(store, 'c', ['apple', 'Apple'], EN2);
    expect(names(run(store, { find: 'c', filter: { name: 'APPLE' } }))).toEqual([]);
    // A named collation still applies.
    expect(names(run(store, { find: 'c', filter: { name: 'APPLE' }, collation: EN2 }))).toEqual(['apple', 'Apple']);
  });

  it('is one for the filter and the sort', () => {
    const store = makeStore();
    seedWords(store, 'c', ['b', 'A', 'a', 'B', 'c']);
    const cmd = { find: 'c', filter: { name: { $in: ['a', 'b'] } }, sort: { name: 1 }, collation: EN2 };
    expect(names(run(store, cmd))).toEqual(['A', 'a', 'b', 'B']);
    expect(names(run(store, { ...cmd, collation: SIMPLE_DOC }))).toEqual(['a', 'b']);
    expect(names(run(store, { find: 'c', sort: { name: -1 } }))).toEqual(['c', 'b', 'a', 'B', 'A']);
    const agg = run(store, { aggregate: 'c', pipeline: [{ $match: { name: { $lte: 'b' } } }, { $sort: { name: 1 } }], cursor: {}, collation: EN2 });
    expect(names(agg)).toEqual(['A', 'a', 'b', 'B']);
  });

  it('does not order the sort under the fault sortIgnoresCollation', () => {
    const store = makeStore({ sortIgnoresCollation: true });
    seedWords(store, 'c', ['b', 'A', 'a', 'B', 'c']);
    expect(names(run(store, { find: 'c', filter: { name: { $in: ['a', 'b'] } }, sort: { name: 1 }, collation: EN2 }))).toEqual(['A', 'B', 'a', 'b']);
  });

  it('collapses distinct values that are equal under it', () => {
    const store = makeStore();
    seedWords(store, 'c', ['apple', 'Apple', 'banana', 'Äpple']);
    expect(run(store, { distinct: 'c', key: 'name', collation: EN2 }).values).toEqual(['apple', 'Äpple', 'banana']);
    expect(run(store, { distinct: 'c', key: 'name', collation: EN1 }).values).toEqual(['apple', 'banana']);
    expect(run(store, { distinct: 'c', key: 'name' }).values).toEqual(['Apple', 'apple', 'banana', 'Äpple']);
  });
});

describe('per-statement collation in update and delete batches', () => {
  const updates = {
    update: 'c',
    updates: [
      { q: { name: 'apple' }, u: { $set: { hit: 1 } }, multi: true, collation: EN2 },
      { q: { name: 'apple' }, u: { $set: { plain: 1 } }, multi: true },
    ],
  };

  it('applies each statement\'s own collation', () => {
    const store = makeStore();
    seedWords(store, 'c', ['apple', 'Apple', 'APPLE']);
    expect(run(store, updates)).toMatchObject({ n: 4, nModified: 4 });
    expect(run(store, { count: 'c', query: { hit: 1 } }).n).toBe(3);
    expect(names(run(store, { find: 'c', filter: { plain: 1 } }))).toEqual(['apple']);
    const del = { delete: 'c', deletes: [{ q: { name: 'APPLE' }, limit: 1 }, { q: { name: 'APPLE' }, limit: 0, collation: EN2 }] };
    expect(run(store, del).n).toBe(3);
  });

  it('uses the collection default for statements without one, simple when named', () => {
    const store = makeStore();
    seedWords(store, 'c', ['apple', 'Apple', 'APPLE'], EN2);
    expect(run(store, { delete: 'c', deletes: [{ q: { name: 'apple' }, limit: 0, collation: SIMPLE_DOC }] }).n).toBe(1);
    expect(run(store, { delete: 'c', deletes: [{ q: { name: 'apple' }, limit: 0 }] }).n).toBe(2);
  });

  it('ignores statement collations under the fault bulkStatementCollationIgnored', () => {
    const store = makeStore({ bulkStatementCollationIgnored: true });
    seedWords(store, 'c', ['apple', 'Apple', 'APPLE']);
    expect(run(store, updates)).toMatchObject({ n: 2 });
    expect(run(store, { delete: 'c', deletes: [{ q: { name: 'APPLE' }, limit: 0, collation: EN2 }] }).n).toBe(1);
  });

  it('upserts and replaces', () => {
    const store = makeStore();
    seedWords(store, 'c', ['apple']);
    const reply = run(store, { update: 'c', updates: [{ q: { name: 'pear' }, u: { $set: { n: 1 } }, upsert: true }, { q: { _id: 1 }, u: { name: 'APPLE' } }] });
    expect(reply).toMatchObject({ n: 2, nModified: 1, upserted: [{ index: 0 }] });
    expect(batch(run(store, { find: 'c', sort: { name: 1 }, projection: { _id: 0 } }))).toEqual([{ name: 'APPLE' }, { name: 'pear', n: 1 }]);
  });
});

describe('matches against document keys', () => {
  function store(faults = {}) {
    const s = makeStore(faults);
    run(s, { create: 'c', collation: EN1 });
    run(s, { insert: 'c', documents: [{ _id: 1, Name: 'x' }, { _id: 2, name: 'x' }, { _id: 3, a: { B: 1 } }, { _id: 4, a: { b: 1 } }] });
    return s;
  }

  it('are binary whatever the strength, dotted paths included', () => {
    const s = store();
    expect(names(run(s, { find: 'c', filter: { name: 'X' } }), '_id')).toEqual([2]);
    expect(names(run(s, { find: 'c', filter: { 'a.b': 1 } }), '_id')).toEqual([4]);
    expect(names(run(s, { find: 'c', filter: { 'A.b': 1 } }), '_id')).toEqual([]);
  });

  it('follow the collation under the fault keyMatchUsesCollation', () => {
    const s = store({ keyMatchUsesCollation: true });
    expect(names(run(s, { find: 'c', filter: { name: 'X' } }), '_id')).toEqual([1, 2]);
    expect(names(run(s, { find: 'c', filter: { 'A.b': 1 } }), '_id')).toEqual([3, 4]);
  });
});

describe('unique keys', () => {
  it('compare with the index collation (the _id index takes the collection default)', () => {
    const store = makeStore();
    run(store, { create: 'c', collation: EN2 });
    run(store, { insert: 'c', documents: [{ _id: 'A' }] });
    const reply = run(store, { insert: 'c', documents: [{ _id: 'b' }, { _id: 'a' }] });
    expect(reply).toMatchObject({ n: 1, writeErrors: [{ index: 1, code: 11000 }] });
    run(store, { insert: 'plain', documents: [{ _id: 'A' }, { _id: 'a' }] });
    run(store, { createIndexes: 'keys', indexes: [{ key: { k: 1 }, name: 'k_1', unique: true, collation: EN2 }] });
    run(store, { insert: 'keys', documents: [{ k: 'x' }] });
    expect(run(store, { insert: 'keys', documents: [{ k: 'X' }] })).toMatchObject({ n: 0, writeErrors: [{ code: 11000 }] });
    // An index over existing documents that collide under its collation is refused.
    expect(store.command({ createIndexes: 'plain', indexes: [{ key: { _id: 1 }, name: 'id_en', unique: true, collation: EN2 }] })).toMatchObject({ ok: 0, code: 11000 });
  });

  it('compare byte for byte under the fault uniqueIndexIgnoresCollation', () => {
    const store = makeStore({ uniqueIndexIgnoresCollation: true });
    run(store, { create: 'c', collation: EN2 });
    expect(run(store, { insert: 'c', documents: [{ _id: 'A' }, { _id: 'a' }] })).toEqual({ n: 2, ok: 1 });
  });
});

describe('values across types', () => {
  it('order numbers < strings < objects < arrays < booleans, and a range stays within its type', () => {
    const store = makeStore();
    run(store, { insert: 'c', documents: [{ _id: 1, v: true }, { _id: 2, v: 'x' }, { _id: 3, v: 5 }, { _id: 4, v: { a: 1 } }, { _id: 5, v: null }] });
    expect(names(run(store, { find: 'c', sort: { v: 1 } }), '_id')).toEqual([5, 3, 2, 4, 1]);
    expect(names(run(store, { find: 'c', filter: { v: { $gt: 1 } } }), '_id')).toEqual([3]);
    expect(names(run(store, { find: 'c', filter: { v: { $gte: '' } } }), '_id')).toEqual([2]);
    expect(names(run(store, { find: 'c', filter: { v: null } }), '_id')).toEqual([5]);
    expect(names(run(store, { find: 'c', filter: { w: null } }), '_id')).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('malformed commands', () => {
  it('are refused with a message that says what to write, never thrown', () => {
    const store = makeStore();
    run(store, { create: 'v', viewOn: 'c' });
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ frobnicate: 'c' }, 'CommandNotFound', /supported: create/],
      [{ find: 5 }, 'BadValue', /non-empty string/],
      [{ find: 'c', filter: 'x' }, 'TypeMismatch', /must be a document/],
      [{ find: 'c', filter: { a: { $regex: 'x' } } }, 'BadValue', /supported: \$eq/],
      [{ find: 'c', filter: { a: { $in: 'x' } } }, 'BadValue', /needs an array/],
      [{ find: 'c', sort: { a: 2 } }, 'BadValue', /1 or -1/],
      [{ delete: 'c', deletes: [{ q: {} }] }, 'FailedToParse', /limit/],
      [{ update: 'c', updates: [{ q: {}, u: { x: 1 }, multi: true }] }, 'FailedToParse', /\$set/],
      [{ update: 'c', updates: [{ q: {}, u: { $inc: { x: 1 } } }] }, 'FailedToParse', /\$set/],
      [{ insert: 'v', documents: [{ a: 1 }] }, 'CommandNotSupportedOnView', /view/],
      [{ insert: 'c', documents: [] }, 'BadValue', /non-empty array/],
      [{ aggregate: 'c', pipeline: [{ $group: {} }], cursor: {} }, 'FailedToParse', /supported: \$match/],
      [{ explain: { distinct: 'c', key: 'a' } }, 'BadValue', /find, count and aggregate/],
      [{ create: 'v' }, 'NamespaceExists', /already exists/],
    ];
    for (const [cmd, codeName, message] of cases) {
      const reply = store.command(cmd);
      expect(reply, JSON.stringify(cmd)).toMatchObject({ ok: 0, codeName });
      expect(typeof reply.code).toBe('number');
      expect(String(reply.errmsg)).toMatch(message);
    }
  });
});
