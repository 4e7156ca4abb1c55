import { describe, expect, it } from 'vitest';
import { exclusiveGroup, isExclusive } from '../../src/engine/exclusive-group.js';
import type { CaseDef } from '../../src/engine/model.js';

const tagged = (...tags: string[]): CaseDef => ({ id: 'c', requirements: ['R'], steps: [], location: { file: 'f', line: 1, column: 1 }, ...(tags.length ? { tags } : {}) });

describe('exclusiveGroup / isExclusive', () => {
  it('names the group of an exclusive:<group> tag, the first of several', () => {
    expect(exclusiveGroup(tagged('slow', 'exclusive:products', 'exclusive:pos'))).toBe('products');
    expect(isExclusive(tagged('exclusive:products'))).toBe(false);
  });

  it('finds no group in a case without one: untagged, plain exclusive, or an empty group name', () => {
    expect(exclusiveGroup(tagged())).toBeUndefined();
    expect(exclusiveGroup(tagged('exclusive'))).toBeUndefined();
    expect(exclusiveGroup(tagged('exclusive:'))).toBeUndefined();
    expect(isExclusive(tagged('exclusive'))).toBe(true);
    expect(isExclusive(tagged())).toBe(false);
  });
});
