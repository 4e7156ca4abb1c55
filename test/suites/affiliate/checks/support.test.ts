import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extraRecords, multisetDiff, recordKey } from '../../../../suites/affiliate/checks/support.js';

/** What recordKey stands for: JSON text of the value with every object's keys sorted, bigints as strings. */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (typeof v === 'bigint') return v.toString();
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') return new Map(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    return v;
  };
  const write = (v: unknown): string | undefined => {
    if (v instanceof Map) {
      const parts = [...v].flatMap(([k, x]) => {
        const t = write(x);
        return t === undefined ? [] : [`${JSON.stringify(k)}:${t}`];
      });
      return `{${parts.join(',')}}`;
    }
    if (Array.isArray(v)) return `[${v.map((x) => write(x) ?? 'null').join(',')}]`;
    return JSON.stringify(v);
  };
  return write(sort(value)) ?? 'null';
}

describe('affiliate record keys', () => {
  it('are the sorted JSON text of any record, nested objects, arrays, bigints and unicode keys included', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.string({ unit: 'grapheme' }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.bigInt(), fc.constant(undefined)),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ unit: 'grapheme' }), tie('node'), { maxKeys: 5 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(recordKey(v)).toBe(sortedJson(v));
      }),
      { numRuns: 500 },
    );
  });

  it('do not depend on the order of keys, and tell apart what differs', () => {
    expect(recordKey({ b: 1, a: { d: [1, { y: 2, x: 1n }], c: 'é' } })).toBe('{"a":{"c":"é","d":[1,{"x":"1","y":2}]},"b":1}');
    expect(recordKey({ a: 1, b: 2 })).toBe(recordKey({ b: 2, a: 1 }));
    expect(recordKey({ a: 1 })).not.toBe(recordKey({ a: '1' }));
    expect(recordKey({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
  });

  it('are the same when a record is keyed again, and each record keeps its own', () => {
    const a = { id: 1, name: 'x' };
    const b = { name: 'y', id: 2 };
    expect([recordKey(a), recordKey(b), recordKey(a), recordKey(b)]).toEqual(['{"id":1,"name":"x"}', '{"id":2,"name":"y"}', '{"id":1,"name":"x"}', '{"id":2,"name":"y"}']);
    expect(recordKey([a, b])).toBe('[{"id":1,"name":"x"},{"id":2,"name":"y"}]');
  });

  it('compare lists as multisets', () => {
    expect(multisetDiff([{ id: 1 }, { id: 1 }, { id: 2 }], [{ id: 2 }, { id: 1 }, { id: 3 }])).toEqual({ missing: ['{"id":1}'], extra: ['{"id":3}'] });
  });

  /** The multiset difference by keys alone: what multisetDiff and extraRecords must find, whatever way they take. */
  function keyedDiff(expected: readonly unknown[], actual: readonly unknown[]): { missing: string[]; extra: string[] } {
    const count = (list: readonly unknown[]): Map<string, number> => {
      const m = new Map<string, number>();
      for (const k of list.map((r) => recordKey(structuredClone(r)))) m.set(k, (m.get(k) ?? 0) + 1);
      return m;
    };
    const want = count(expected);
    const got = count(actual);
    const missing: string[] = [];
    const extra: string[] = [];
    for (const [k, n] of want) for (let i = got.get(k) ?? 0; i < n; i++) missing.push(k);
    for (const [k, n] of got) for (let i = want.get(k) ?? 0; i < n; i++) extra.push(k);
    return { missing, extra };
  }

  it('find the same differences whether the lists hold the same records in order, a part of them in order, or anything else', () => {
    // few values and keys, so that equal records, values equal as keys only (1n and "1") and records differing in one field all come up
    const value = fc.oneof(fc.constantFrom('1', 'a', '', 'A'), fc.constantFrom(0, 1, -0, 1.5), fc.boolean(), fc.constant(null), fc.constant(1n), fc.constant(undefined), fc.constant([1]));
    const record = fc.oneof(fc.dictionary(fc.constantFrom('id', 'b', 'toJSON', '2', '10'), value, { maxKeys: 3 }), value);
    const lists = fc.array(record, { maxLength: 8 }).chain((expected) =>
      fc.tuple(
        fc.constant(expected),
        fc.oneof(
          fc.constant(expected.map((r) => structuredClone(r))),
          fc.subarray(expected).map((part) => part.map((r) => structuredClone(r))),
          fc.shuffledSubarray(expected),
          fc.array(record, { maxLength: 8 }),
        ),
      ),
    );
    fc.assert(
      fc.property(lists, ([expected, actual]) => {
        const want = keyedDiff(expected, actual);
        expect(multisetDiff(expected, actual)).toEqual(want);
        expect(extraRecords(expected, actual)).toEqual(want.extra);
      }),
      { numRuns: 1000 },
    );
  });

  it('tell a list of the same records in order from one whose record differs in a value, a key or a type', () => {
    const all = [{ a: '1', b: 2 }, { a: '2', b: 3 }];
    expect(multisetDiff(all, [{ b: 2, a: '1' }, { a: '2', b: 3 }])).toEqual({ missing: [], extra: [] });
    expect(multisetDiff(all, [{ a: '1', b: 2 }, { a: '2', b: 4 }])).toEqual({ missing: ['{"a":"2","b":3}'], extra: ['{"a":"2","b":4}'] });
    expect(extraRecords(all, [{ a: '2', b: 3 }])).toEqual([]);
    expect(extraRecords(all, [{ a: '2', b: 3 }, { a: '1', b: 2 }])).toEqual([]);
    expect(extraRecords(all, [{ a: '2', b: '3' }])).toEqual(['{"a":"2","b":"3"}']);
    expect(extraRecords(all, [{ a: '1', b: 2, c: null }])).toEqual(['{"a":"1","b":2,"c":null}']);
    expect(extraRecords([{ a: 1n }], [{ a: '1' }])).toEqual([]);
  });
});
