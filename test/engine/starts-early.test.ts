import { describe, expect, it } from 'vitest';
import type { CaseDef } from '../../src/engine/model.js';
import { earlyFirst, startsEarly } from '../../src/engine/starts-early.js';

const tagged = (id: string, ...tags: string[]): CaseDef => ({ id, requirements: ['R'], steps: [], location: { file: 'f', line: 1, column: 1 }, ...(tags.length ? { tags } : {}) });

describe('startsEarly / earlyFirst', () => {
  it('tells a case tagged starts-early among other tags', () => {
    expect(startsEarly(tagged('a', 'slow', 'starts-early'))).toBe(true);
    expect(startsEarly(tagged('a', 'exclusive'))).toBe(false);
    expect(startsEarly(tagged('a'))).toBe(false);
  });

  it('puts the tagged cases first, each part in its own order, and only the indices given', () => {
    const cases = [tagged('a'), tagged('b', 'starts-early'), tagged('c'), tagged('d', 'starts-early'), tagged('e', 'starts-early')];
    expect(earlyFirst(cases, [0, 1, 2, 3, 4])).toEqual([1, 3, 4, 0, 2]);
    expect(earlyFirst(cases, [0, 2, 4])).toEqual([4, 0, 2]);
  });

  it('keeps the order, the same array, when no case is tagged', () => {
    const cases = [tagged('a'), tagged('b')];
    const indices = [1, 0];
    expect(earlyFirst(cases, indices)).toBe(indices);
  });
});
