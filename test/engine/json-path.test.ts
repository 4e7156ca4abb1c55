import { describe, expect, it } from 'vitest';
import { getPath, parseJsonPath } from '../../src/engine/json-path.js';
import { SpecgateError } from '../../src/errors.js';

describe('parseJsonPath', () => {
  it.each([
    ['$', []],
    ['$.a', ['a']],
    ['$.a.b_c', ['a', 'b_c']],
    ['$.items[0]', ['items', 0]],
    ['$.items[-1].id', ['items', -1, 'id']],
    ["$['odd-key'].x", ['odd-key', 'x']],
    ['$["with space"]', ['with space']],
    ['$.kebab-name', ['kebab-name']],
    ['$.$ref', ['$ref']],
  ])('%s', (path, segs) => expect(parseJsonPath(path)).toEqual(segs));

  it.each([
    ['a.b', 'it must start with "$"'],
    ['$.', 'expected a name after "." at position 2'],
    ['$.a[x]', "expected [number] or ['key'] at position 3"],
    ['$.a[*]', "expected [number] or ['key'] at position 3"],
    ['$a', 'unexpected "a" at position 1'],
  ])('rejects %s: %s', (path, why) => {
    let err: unknown;
    try {
      parseJsonPath(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SpecgateError);
    expect((err as SpecgateError).code).toBe('SG_EXPRESSION');
    expect((err as SpecgateError).message).toBe(`bad path ${JSON.stringify(path)}: ${why} (forms: $.a.b, $.items[0], $['odd-key'])`);
  });
});

describe('getPath', () => {
  const doc = { a: { b: [10, 20, { c: 'x' }] }, 'odd-key': 1, nul: null, big: 9007199254740993n };

  it('reads nested values, negative indexes from the end, odd keys', () => {
    expect(getPath(doc, '$')).toBe(doc);
    expect(getPath(doc, '$.a.b[0]')).toBe(10);
    expect(getPath(doc, '$.a.b[-1].c')).toBe('x');
    expect(getPath(doc, "$['odd-key']")).toBe(1);
    expect(getPath(doc, '$.big')).toBe(9007199254740993n);
  });

  it('gives undefined for anything missing, never throws', () => {
    expect(getPath(doc, '$.nope')).toBeUndefined();
    expect(getPath(doc, '$.a.b[9]')).toBeUndefined();
    expect(getPath(doc, '$.nul.x')).toBeUndefined();
    expect(getPath(doc, '$.a.b[0].x')).toBeUndefined();
    expect(getPath(undefined, '$.a')).toBeUndefined();
    expect(getPath('text', '$.length')).toBeUndefined();
  });

  it('a numeric segment on an object reads the key of that name', () => {
    expect(getPath({ '0': 'zero' }, '$[0]')).toBe('zero');
  });

  it('accepts parsed segments', () => {
    expect(getPath(doc, ['a', 'b', 1])).toBe(20);
  });
});
