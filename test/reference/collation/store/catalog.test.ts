import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createStore, STORE_FAULT_NAMES, STORE_FAULTS, type StoreFaults } from '../../../../reference/collation/store/index.js';
import { SpecgateError } from '../../../../src/errors.js';
import { EN2, SIMPLE_DOC, batch, makeCollator, makeStore, parseCollation, run } from './stand-in.js';

const RESOLVED_EN2 = {
  locale: 'en',
  strength: 2,
  caseLevel: false,
  caseFirst: 'off',
  numericOrdering: false,
  alternate: 'non-ignorable',
  maxVariable: 'punct',
  normalization: false,
  backwards: false,
};

function options(faults: StoreFaults = {}): Record<string, Record<string, unknown>> {
  const store = makeStore(faults);
  run(store, { create: 'en', collation: EN2 });
  run(store, { create: 'simple', collation: SIMPLE_DOC });
  run(store, { create: 'none' });
  run(store, { create: 'view_en', viewOn: 'en', pipeline: [{ $match: { a: 1 } }], collation: EN2 });
  return Object.fromEntries(batch(run(store, { listCollections: 1 })).map((e) => [String(e.name), e.options as Record<string, unknown>]));
}

describe('listCollections', () => {
  it('echoes a valid collation with every field filled in and stores simple as no collation', () => {
    const listed = options();
    expect(listed.en).toEqual({ collation: RESOLVED_EN2 });
    expect(listed.simple).toEqual({});
    expect(listed.none).toEqual({});
    expect(listed.view_en).toEqual({ viewOn: 'en', pipeline: [{ $match: { a: 1 } }], collation: RESOLVED_EN2 });
  });

  it('lists types and filters by name', () => {
    const store = makeStore();
    run(store, { create: 'b' });
    run(store, { create: 'a', viewOn: 'b' });
    expect(batch(run(store, { listCollections: 1 })).map((e) => [e.name, e.type])).toEqual([
      ['a', 'view'],
      ['b', 'collection'],
    ]);
    expect(batch(run(store, { listCollections: 1, filter: { name: 'b' } })).map((e) => e.name)).toEqual(['b']);
    run(store, { drop: 'a' });
    expect(batch(run(store, { listCollections: 1 })).map((e) => e.name)).toEqual(['b']);
  });

  it('stores simple explicitly under the fault simpleStoredExplicitly', () => {
    const listed = options({ simpleStoredExplicitly: true });
    expect(listed.simple).toEqual({ collation: { locale: 'simple' } });
    expect(listed.en).toEqual({ collation: RESOLVED_EN2 });
  });

  it('echoes the collation as written under the fault echoOmitsDefaults', () => {
    const listed = options({ echoOmitsDefaults: true });
    expect(listed.en).toEqual({ collation: EN2 });
    expect(listed.simple).toEqual({});
  });
});

describe('invalid collation documents', () => {
  const bad = { locale: 'en', strength: 9 };

  it('are refused wherever a collation is given, and nothing changes', () => {
    const store = makeStore();
    run(store, { insert: 'c', documents: [{ _id: 1, name: 'a' }] });
    for (const cmd of [
      { create: 'x', collation: bad },
      { create: 'y', collation: 'en' },
      { create: 'v', viewOn: 'c', collation: { locale: 'xx' } },
      { find: 'c', collation: bad },
      { aggregate: 'c', pipeline: [], cursor: {}, collation: bad },
      { createIndexes: 'c', indexes: [{ key: { name: 1 }, name: 'n', collation: bad }] },
      { update: 'c', updates: [{ q: {}, u: { $set: { z: 1 } } }, { q: {}, u: { $set: { z: 2 } }, collation: bad }] },
      { delete: 'c', deletes: [{ q: {}, limit: 0, collation: bad }] },
    ]) {
      const reply = store.command(cmd);
      expect(reply, JSON.stringify(cmd)).toMatchObject({ ok: 0 });
      expect([2, 14]).toContain(reply.code);
    }
    expect(batch(run(store, { listCollections: 1 })).map((e) => e.name)).toEqual(['c']);
    expect(batch(run(store, { find: 'c' }))).toEqual([{ _id: 1, name: 'a' }]);
    expect(batch(run(store, { listIndexes: 'c' }))).toHaveLength(1);
  });

  it('are accepted and listed as written under the fault invalidCollationAccepted', () => {
    const store = makeStore({ invalidCollationAccepted: true });
    run(store, { create: 'x', collation: bad });
    expect(batch(run(store, { listCollections: 1 }))[0]?.options).toEqual({ collation: bad });
    run(store, { find: 'x', collation: bad });
  });
});

describe('faults', () => {
  it('every fault is documented, and every fault is exercised by a test of this folder', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const tests = readdirSync(here)
      .filter((f) => f.endsWith('.test.ts') && f !== 'catalog.test.ts')
      .map((f) => readFileSync(join(here, f), 'utf8'))
      .join('\n');
    const own = readFileSync(fileURLToPath(import.meta.url), 'utf8').split("describe('faults'")[0] ?? '';
    for (const name of STORE_FAULT_NAMES) {
      expect(STORE_FAULTS[name].length, name).toBeGreaterThan(20);
      expect(`${tests}\n${own}`, `no test plants ${name}`).toMatch(new RegExp(`${name}: true`));
    }
  });

  it('an unknown fault name is a configuration error', () => {
    expect(() => createStore({ parseCollation, makeCollator, faults: { noSuchRule: true } as StoreFaults })).toThrow(SpecgateError);
  });
});
