import { describe, expect, it } from 'vitest';
import type { StoreFaults } from '../../../../reference/collation/store/index.js';
import { EN2, FR2, SIMPLE_DOC, batch, makeStore, run, seedWords } from './stand-in.js';

type Plan = Record<string, unknown>;

function winningPlan(reply: Record<string, unknown>): Plan {
  return (reply.queryPlanner as { winningPlan: Plan }).winningPlan;
}

/** The first stage of a given name in a plan tree. */
function stageOf(plan: Plan | undefined, name: string): Plan | undefined {
  if (plan === undefined) return undefined;
  if (plan.stage === name) return plan;
  return stageOf(plan.inputStage as Plan | undefined, name);
}

/** A collection with an en strength-2 default and indexes on a string, a number and both. */
function fixture(faults: StoreFaults = {}) {
  const store = makeStore(faults);
  seedWords(store, 'c', ['apple', 'Apple', 'banana'], EN2);
  run(store, { createIndexes: 'c', indexes: [{ key: { name: 1 }, name: 'name_1' }, { key: { n: 1, name: 1 }, name: 'n_1_name_1' }] });
  return store;
}

const explainFind = (store: ReturnType<typeof makeStore>, find: Record<string, unknown>) => winningPlan(run(store, { explain: { find: 'c', ...find } }));

describe('an index\'s collation', () => {
  it('is the collection default unless the index names one', () => {
    const store = fixture();
    run(store, { createIndexes: 'c', indexes: [{ key: { other: 1 }, name: 'other_simple', collation: SIMPLE_DOC }] });
    const listed = batch(run(store, { listIndexes: 'c' }));
    expect(listed.map((i) => i.name)).toEqual(['_id_', 'name_1', 'n_1_name_1', 'other_simple']);
    expect(listed[1]?.collation).toMatchObject({ locale: 'en', strength: 2, caseLevel: false, backwards: false });
    expect(listed[3]).toEqual({ v: 2, key: { other: 1 }, name: 'other_simple' });
  });

  it('is simple when unnamed under the fault indexIgnoresCollectionDefault', () => {
    const store = fixture({ indexIgnoresCollectionDefault: true });
    expect(batch(run(store, { listIndexes: 'c' }))[1]).toEqual({ v: 2, key: { name: 1 }, name: 'name_1' });
    expect(stageOf(explainFind(store, { filter: { name: 'apple' } }), 'IXSCAN')).toBeUndefined();
  });
});

describe('an index supports a string comparison', () => {
  it('when the operation\'s collation equals the index\'s', () => {
    const store = fixture();
    const plan = explainFind(store, { filter: { name: 'apple' } });
    expect(plan).toMatchObject({ stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'name_1', keyPattern: { name: 1 }, indexBounds: { name: ['["apple", "apple"]'] } } });
    expect(plan.filter).toBeUndefined();
    expect(stageOf(explainFind(store, { filter: { name: 'apple' }, collation: EN2 }), 'IXSCAN')).toBeDefined();
  });

  it('not when the operation names another collation', () => {
    const store = fixture();
    expect(explainFind(store, { filter: { name: 'apple' }, collation: FR2 })).toMatchObject({ stage: 'COLLSCAN', filter: { name: { $eq: 'apple' } } });
  });

  it('with another collation under the fault indexIgnoresCollationMismatch, not for simple', () => {
    const store = fixture({ indexIgnoresCollationMismatch: true });
    expect(stageOf(explainFind(store, { filter: { name: 'apple' }, collation: FR2 }), 'IXSCAN')).toMatchObject({ indexName: 'name_1' });
    expect(explainFind(store, { filter: { name: 'apple' }, collation: SIMPLE_DOC }).stage).toBe('COLLSCAN');
  });

  it('never for an operation with the simple collation on a non-simple index', () => {
    const store = fixture();
    expect(explainFind(store, { filter: { name: 'apple' }, collation: SIMPLE_DOC }).stage).toBe('COLLSCAN');
    expect(explainFind(store, { filter: { name: { $gt: 'a', $lt: 'b' } }, collation: SIMPLE_DOC }).stage).toBe('COLLSCAN');
  });

  it('for a simple operation under the fault simpleUsesCollatedIndex, not for another collation', () => {
    const store = fixture({ simpleUsesCollatedIndex: true });
    expect(stageOf(explainFind(store, { filter: { name: 'apple' }, collation: SIMPLE_DOC }), 'IXSCAN')).toMatchObject({ indexName: 'name_1' });
    expect(explainFind(store, { filter: { name: 'apple' }, collation: FR2 }).stage).toBe('COLLSCAN');
  });
});

describe('a compound index whose prefix keys are not strings', () => {
  it('serves another collation on the prefix only, the string predicate in the FETCH filter', () => {
    const store = fixture();
    const plan = explainFind(store, { filter: { n: 5, name: 'apple' }, collation: SIMPLE_DOC });
    expect(plan).toMatchObject({
      stage: 'FETCH',
      filter: { name: { $eq: 'apple' } },
      inputStage: { stage: 'IXSCAN', indexName: 'n_1_name_1', indexBounds: { n: ['[5, 5]'], name: ['[MinKey, MaxKey]'] } },
    });
  });

  it('is used on every key when the collations are equal', () => {
    const store = fixture();
    const plan = explainFind(store, { filter: { n: { $gte: 2 }, name: { $in: ['b', 'a'] } } });
    expect(plan).toMatchObject({ stage: 'FETCH', inputStage: { indexName: 'n_1_name_1', indexBounds: { n: ['[2, inf.0]'], name: ['["a", "a"]', '["b", "b"]'] } } });
    expect(plan.filter).toBeUndefined();
  });

  it('is not used for a string leading key under another collation', () => {
    const store = fixture();
    run(store, { createIndexes: 'c', indexes: [{ key: { name: 1, n: 1 }, name: 'name_1_n_1' }] });
    const plan = explainFind(store, { filter: { name: 'apple', n: 5 }, collation: SIMPLE_DOC, hint: 'name_1_n_1' });
    expect(plan).toMatchObject({ inputStage: { indexBounds: { name: ['[MinKey, MaxKey]'], n: ['[5, 5]'] } } });
    // Unhinted, the number-led index wins: its bounded prefix is usable.
    expect(stageOf(explainFind(store, { filter: { name: 'apple', n: 5 }, collation: SIMPLE_DOC }), 'IXSCAN')).toMatchObject({ indexName: 'n_1_name_1' });
  });

  it('is not used at all under the fault noPrefixUseWithOtherCollation', () => {
    const store = fixture({ noPrefixUseWithOtherCollation: true });
    expect(explainFind(store, { filter: { n: 5, name: 'apple' }, collation: SIMPLE_DOC }).stage).toBe('COLLSCAN');
    // Without a string predicate the index is still used.
    expect(stageOf(explainFind(store, { filter: { n: 5 }, collation: SIMPLE_DOC }), 'IXSCAN')).toMatchObject({ indexName: 'n_1_name_1' });
  });
});

describe('plan choice', () => {
  it('prefers the index with the most bounded fields and honors hints', () => {
    const store = fixture();
    run(store, { createIndexes: 'c', indexes: [{ key: { n: 1 }, name: 'n_1' }, { key: { m: -1 }, name: 'm_desc' }] });
    expect(stageOf(explainFind(store, { filter: { n: 1 } }), 'IXSCAN')).toMatchObject({ indexName: 'n_1_name_1' });
    expect(stageOf(explainFind(store, { filter: { n: 1, name: 'x' } }), 'IXSCAN')).toMatchObject({ indexName: 'n_1_name_1' });
    expect(stageOf(explainFind(store, { filter: { n: 1, name: 'x' }, hint: 'n_1' }), 'IXSCAN')).toMatchObject({ indexName: 'n_1' });
    expect(stageOf(explainFind(store, { filter: { n: 1 }, hint: { name: 1 } }), 'IXSCAN')).toMatchObject({ indexName: 'name_1', indexBounds: { name: ['[MinKey, MaxKey]'] } });
    expect(explainFind(store, { filter: { n: 1 }, hint: { $natural: 1 } }).stage).toBe('COLLSCAN');
    expect(stageOf(explainFind(store, { filter: { m: { $gt: 3 } } }), 'IXSCAN')).toMatchObject({ indexBounds: { m: ['[inf.0, 3)'] } });
    expect(explainFind(store, { filter: { other: 1 } })).toEqual({ stage: 'COLLSCAN', direction: 'forward', filter: { other: { $eq: 1 } } });
    expect(store.command({ explain: { find: 'c', hint: 'nope' } })).toMatchObject({ ok: 0, code: 2 });
    expect(store.command({ find: 'c', hint: { zz: 1 } })).toMatchObject({ ok: 0, code: 2 });
  });

  it('wraps sorts, limits and counts, and plans a view\'s filter on its collection', () => {
    const store = fixture();
    expect(explainFind(store, { filter: { name: 'a' }, sort: { name: 1 }, limit: 2 })).toMatchObject({ stage: 'SORT', sortPattern: { name: 1 }, limitAmount: 2, inputStage: { stage: 'FETCH' } });
    expect(winningPlan(run(store, { explain: { count: 'c', query: { name: 'a' } } }))).toMatchObject({ stage: 'COUNT', inputStage: { stage: 'FETCH' } });
    const agg = winningPlan(run(store, { explain: { aggregate: 'c', pipeline: [{ $match: { name: 'a' } }, { $sort: { n: 1 } }], cursor: {} } }));
    expect(agg).toMatchObject({ stage: 'SORT', inputStage: { stage: 'FETCH', inputStage: { indexName: 'name_1' } } });
    run(store, { create: 'v_en', viewOn: 'c', pipeline: [{ $match: { n: { $gt: 0 } } }], collation: EN2 });
    run(store, { create: 'v_simple', viewOn: 'c', pipeline: [] });
    const onView = winningPlan(run(store, { explain: { find: 'v_en', filter: { name: 'a' } } }));
    expect(stageOf(onView, 'IXSCAN')).toMatchObject({ indexName: 'n_1_name_1', indexBounds: { n: ['(0, inf.0]'], name: ['["a", "a"]'] } });
    expect(winningPlan(run(store, { explain: { find: 'v_simple', filter: { name: 'a' } } })).stage).toBe('COLLSCAN');
    expect(winningPlan(run(store, { explain: { find: 'missing' } })).stage).toBe('EOF');
  });
});

describe('text, 2d and geoHaystack indexes', () => {
  for (const type of ['text', '2d', 'geoHaystack']) {
    it(`a ${type} key on a collection with a non-simple default needs collation simple`, () => {
      const store = fixture();
      const reply = store.command({ createIndexes: 'c', indexes: [{ key: { body: type }, name: 'special' }] });
      expect(reply).toMatchObject({ ok: 0, code: 67, codeName: 'CannotCreateIndex' });
      expect(String(reply.errmsg)).toMatch(/locale: "simple"/);
      expect(store.command({ createIndexes: 'c', indexes: [{ key: { body: type }, name: 'special', collation: EN2 }] })).toMatchObject({ ok: 0, code: 67 });
      expect(run(store, { createIndexes: 'c', indexes: [{ key: { body: type }, name: 'special', collation: SIMPLE_DOC }] })).toMatchObject({ numIndexesBefore: 3, numIndexesAfter: 4 });
      expect(batch(run(store, { listIndexes: 'c' }))[3]).toEqual({ v: 2, key: { body: type }, name: 'special' });
      seedWords(store, 'plain', ['x']);
      run(store, { createIndexes: 'plain', indexes: [{ key: { body: type }, name: 'special' }] });
    });
  }

  it('are created without collation simple under the fault textIndexWithoutSimpleAccepted', () => {
    const store = fixture({ textIndexWithoutSimpleAccepted: true });
    run(store, { createIndexes: 'c', indexes: [{ key: { body: 'text' }, name: 'special' }] });
    expect(batch(run(store, { listIndexes: 'c' }))[3]?.collation).toMatchObject({ locale: 'en' });
  });

  it('a 2dsphere or hashed key takes the collection default', () => {
    const store = fixture();
    run(store, { createIndexes: 'c', indexes: [{ key: { loc: '2dsphere' }, name: 'geo' }, { key: { h: 'hashed' }, name: 'h' }] });
    const listed = batch(run(store, { listIndexes: 'c' }));
    expect(listed.slice(3).map((i) => (i.collation as { locale?: string } | undefined)?.locale)).toEqual(['en', 'en']);
  });
});

describe('createIndexes conflicts', () => {
  it('repeats are no-ops, clashes are refused, views have no indexes', () => {
    const store = fixture();
    expect(run(store, { createIndexes: 'c', indexes: [{ key: { name: 1 }, name: 'name_1' }] })).toMatchObject({ numIndexesBefore: 3, numIndexesAfter: 3 });
    expect(store.command({ createIndexes: 'c', indexes: [{ key: { zz: 1 }, name: 'name_1' }] })).toMatchObject({ ok: 0, code: 86 });
    expect(store.command({ createIndexes: 'c', indexes: [{ key: { name: 1 }, name: 'again' }] })).toMatchObject({ ok: 0, code: 85 });
    run(store, { createIndexes: 'c', indexes: [{ key: { name: 1 }, name: 'name_fr', collation: FR2 }] });
    run(store, { create: 'v', viewOn: 'c' });
    expect(store.command({ createIndexes: 'v', indexes: [{ key: { a: 1 }, name: 'a' }] })).toMatchObject({ ok: 0, code: 166 });
    expect(store.command({ listIndexes: 'nope' })).toMatchObject({ ok: 0, code: 26 });
  });
});
