import { describe, expect, it } from 'vitest';
import { KEPT_BYTES, KEPT_CHARS, KEPT_DEPTH, KEPT_ITEMS, KEPT_NODES, MORE_KEYS, boundedValue } from '../../../src/engine/runtime/bounded-value.js';

describe('values a failure keeps for its report', () => {
  it('returns a value within every bound as it is, without a copy', () => {
    const v = { id: 7, tags: ['a', 'b'], nested: { ok: true, at: null }, bytes: new Uint8Array(8) };
    expect(boundedValue(v)).toBe(v);
    expect(boundedValue('short')).toBe('short');
    expect(boundedValue(undefined)).toBeUndefined();
  });

  it('cuts a long list, saying how many items were left out, and leaves the original whole', () => {
    const list = Array.from({ length: KEPT_ITEMS + 250 }, (_, i) => i);
    const cut = boundedValue(list) as unknown[];
    expect(cut).toHaveLength(KEPT_ITEMS + 1);
    expect(cut.slice(0, 3)).toEqual([0, 1, 2]);
    expect(cut[KEPT_ITEMS]).toBe('… 250 more items not shown');
    expect(list).toHaveLength(KEPT_ITEMS + 250);
  });

  it('cuts an object with too many keys under the key "…", and keeps a "__proto__" key as data', () => {
    const obj: Record<string, number> = {};
    for (let i = 0; i < KEPT_ITEMS + 3; i++) obj[`k${i}`] = i;
    const cut = boundedValue(obj) as Record<string, unknown>;
    expect(Object.keys(cut)).toHaveLength(KEPT_ITEMS + 1);
    expect(cut[MORE_KEYS]).toBe('3 more keys not shown');
    const hostile = JSON.parse(`{"__proto__": {"polluted": 1}, "pad": "${'x'.repeat(KEPT_CHARS + 1)}"}`) as Record<string, unknown>;
    const kept = boundedValue(hostile) as Record<string, unknown>;
    expect(Object.hasOwn(kept, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('cuts long strings and byte arrays, saying how much there was', () => {
    const text = boundedValue('x'.repeat(KEPT_CHARS * 3)) as string;
    expect(text.length).toBeLessThan(KEPT_CHARS + 200);
    expect(text.startsWith('x'.repeat(KEPT_CHARS - 10))).toBe(true);
    const bytes = boundedValue(new Uint8Array(KEPT_BYTES * 2)) as { first: Uint8Array; cut: string };
    expect(bytes.first).toHaveLength(KEPT_BYTES);
    expect(bytes.cut).toBe(`… the first ${KEPT_BYTES} of ${KEPT_BYTES * 2} bytes`);
  });

  it('keeps at most so many values in all, however they are spread', () => {
    // a hundred lists of a hundred: each within the item bound, together far beyond the node bound
    const wide = Array.from({ length: KEPT_ITEMS }, () => Array.from({ length: KEPT_ITEMS }, (_, i) => i));
    const count = (v: unknown): number => (Array.isArray(v) ? 1 + v.reduce((n: number, x) => n + count(x), 0) : 1);
    expect(count(boundedValue(wide))).toBeLessThanOrEqual(KEPT_NODES + 2 * KEPT_ITEMS);
  });

  it('marks nesting beyond its depth and a cycle instead of following them', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < KEPT_DEPTH + 5; i++) deep = [deep];
    expect(JSON.stringify(boundedValue(deep))).toContain(`… nested beyond ${KEPT_DEPTH} levels`);
    const a: Record<string, unknown> = { name: 'a', pad: 'y'.repeat(KEPT_CHARS + 1) };
    a['self'] = a;
    expect((boundedValue(a) as Record<string, unknown>)['self']).toBe('[Circular]');
  });
});
