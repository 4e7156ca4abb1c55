import { describe, expect, it } from 'vitest';
import { BoundedStringMemo } from '../../../../reference/collation/comparator/bounded-string-memo.js';

describe('BoundedStringMemo', () => {
  it('derives each remembered string once', () => {
    const derived: string[] = [];
    const memo = new BoundedStringMemo((s) => (derived.push(s), s.length), { generation: 8, maxKeyLength: 100 });
    for (let round = 0; round < 5; round++) for (const s of ['a', 'bb', 'ccc']) memo.get(s);
    expect(derived).toEqual(['a', 'bb', 'ccc']);
    expect(memo.get('bb')).toBe(2);
  });

  it('holds at most two generations, however many distinct strings it sees', () => {
    const memo = new BoundedStringMemo((s) => s.length, { generation: 100, maxKeyLength: 100 });
    for (let i = 0; i < 10_000; i++) memo.get(`s${i}`);
    expect(memo.size).toBeLessThanOrEqual(200);
  });

  it('keeps a string in use across generations', () => {
    let derivations = 0;
    const memo = new BoundedStringMemo((s) => (derivations++, s), { generation: 10, maxKeyLength: 100 });
    memo.get('kept');
    for (let i = 0; i < 100; i++) {
      memo.get(`other${i}`);
      memo.get('kept');
    }
    expect(derivations).toBe(101);
  });

  it('never remembers a string longer than the limit', () => {
    let derivations = 0;
    const memo = new BoundedStringMemo((s) => (derivations++, s.length), { generation: 10, maxKeyLength: 4 });
    memo.get('long string');
    memo.get('long string');
    expect(derivations).toBe(2);
    expect(memo.size).toBe(0);
  });
});

describe('BoundedStringMemo letting go', () => {
  it('hands every value it drops to drop, once, and never one still held', () => {
    const dropped: string[] = [];
    const memo = new BoundedStringMemo((s) => s, { generation: 4, maxKeyLength: 100, drop: (v) => dropped.push(v) });
    for (let i = 0; i < 40; i++) {
      memo.get(`s${i}`);
      memo.get('kept');
    }
    expect(dropped).not.toContain('kept');
    expect(new Set(dropped).size).toBe(dropped.length);
    expect(dropped.length + memo.size).toBe(41);
  });
});
