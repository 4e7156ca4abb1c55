import { describe, expect, it } from 'vitest';
import { exclusiveGroup, isExclusive } from '../../src/engine/exclusive-group.js';
import type { CaseDef } from '../../src/engine/model.js';
import { createAjv, schemaText } from '../../src/engine/loader/schema-check.js';

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

describe('the case schema on exclusive tags', () => {
  const validate = createAjv().compile(JSON.parse(schemaText('cases')) as object);
  /** The schema's complaints about the first case's first tag. */
  const tagProblems = (tag: string): string[] => {
    validate([{ id: 'c', requirements: ['R'], tags: [tag], steps: [] }]);
    return (validate.errors ?? []).filter((e) => e.instancePath === '/0/tags/0').map((e) => e.keyword);
  };

  it('refuses an exclusive: tag whose group is empty or badly formed, which would otherwise run the case beside every other', () => {
    expect(tagProblems('exclusive:')).toContain('pattern');
    expect(tagProblems('exclusive: products')).toContain('pattern');
  });

  it('accepts a named group, plain exclusive and other tags', () => {
    expect(tagProblems('exclusive:products')).toEqual([]);
    expect(tagProblems('exclusive')).toEqual([]);
    expect(tagProblems('time-bound')).toEqual([]);
  });
});
