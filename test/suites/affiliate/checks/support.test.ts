import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { multisetDiff, recordKey } from '../../../../suites/affiliate/checks/support.js';

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
});
