import { describe, expect, it } from 'vitest';
import type { StoreFaults } from '../../../../reference/collation/store/index.js';
import { EN1, EN2, makeStore, names, run, seedWords } from './stand-in.js';

/** A simple collection of words and a view on it whose default is case-insensitive (en, strength 2). */
function fixture(faults: StoreFaults = {}) {
  const store = makeStore(faults);
  seedWords(store, 'c', ['apple', 'Apple', 'banana']);
  run(store, { create: 'v', viewOn: 'c', pipeline: [], collation: EN2 });
  return store;
}

const listed = (store: ReturnType<typeof makeStore>, name: string) =>
  (run(store, { listCollections: 1, filter: { name } }).cursor as { firstBatch: Array<{ options: Record<string, unknown> }> }).firstBatch[0]?.options;

describe('collMod of a view', () => {
  it('changes its pipeline and source, and keeps its collation', () => {
    const store = fixture();
    seedWords(store, 'd', ['APPLE', 'cherry']);
    run(store, { collMod: 'v', pipeline: [{ $match: { name: { $ne: 'banana' } } }] });
    expect(names(run(store, { find: 'v', filter: { name: 'APPLE' } }))).toEqual(['apple', 'Apple']);
    expect(names(run(store, { find: 'v' }))).toEqual(['apple', 'Apple']);
    run(store, { collMod: 'v', viewOn: 'd' });
    // the pipeline stays as it was; the en default still matches regardless of case
    expect(names(run(store, { find: 'v', filter: { name: 'apple' } }))).toEqual(['APPLE']);
    expect(listed(store, 'v')).toMatchObject({ viewOn: 'd', pipeline: [{ $match: { name: { $ne: 'banana' } } }], collation: { locale: 'en', strength: 2 } });
  });

  it('is refused when it names a collation, and changes nothing', () => {
    const store = fixture();
    for (const cmd of [
      { collMod: 'v', collation: EN1 },
      { collMod: 'v', collation: EN2 },
      { collMod: 'v', viewOn: 'c', pipeline: [{ $match: { name: 'banana' } }], collation: { locale: 'simple' } },
    ]) {
      expect(store.command(cmd), JSON.stringify(cmd)).toMatchObject({ ok: 0, code: 72, codeName: 'InvalidOptions' });
    }
    expect(names(run(store, { find: 'v', filter: { name: 'APPLE' } }))).toEqual(['apple', 'Apple']);
    expect(listed(store, 'v')).toMatchObject({ pipeline: [], collation: { locale: 'en', strength: 2 } });
  });

  it('keeps the view-on-view and self-reference rules of create', () => {
    const store = fixture();
    run(store, { create: 'plain', viewOn: 'c', pipeline: [] });
    // v (en) would read the simple view "plain": a view on a view must share its collation
    expect(store.command({ collMod: 'v', viewOn: 'plain' })).toMatchObject({ ok: 0, code: 167 });
    run(store, { create: 'w', viewOn: 'v', pipeline: [], collation: EN2 });
    expect(store.command({ collMod: 'v', viewOn: 'w' })).toMatchObject({ ok: 0, code: 2 });
    expect(listed(store, 'v')).toMatchObject({ viewOn: 'c' });
  });

  it('refuses unknown options, a missing namespace, and view fields on a collection', () => {
    const store = fixture();
    expect(store.command({ collMod: 'v', validator: {} })).toMatchObject({ ok: 0, code: 72 });
    expect(store.command({ collMod: 'nothing', pipeline: [] })).toMatchObject({ ok: 0, code: 26 });
    expect(store.command({ collMod: 'c', collation: EN2 })).toMatchObject({ ok: 0, code: 72 });
    expect(store.command({ collMod: 'c', pipeline: [] })).toMatchObject({ ok: 0, code: 72 });
    expect(store.command({ collMod: 'c' })).toMatchObject({ ok: 1 });
  });

  it('changes the view\'s collation under the fault viewCollationChangeAccepted', () => {
    const store = fixture({ viewCollationChangeAccepted: true });
    run(store, { collMod: 'v', collation: { locale: 'simple' } });
    expect(names(run(store, { find: 'v', filter: { name: 'APPLE' } }))).toEqual([]);
    expect(names(run(store, { find: 'v', filter: { name: 'apple' } }))).toEqual(['apple']);
  });
});
