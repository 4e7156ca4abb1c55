import { describe, expect, it } from 'vitest';
import { deepEqual, isOperatorObject, match, show, typeName, unknownOperators } from '../../src/checks/matchers.js';

const ok = (actual: unknown, matcher: unknown): boolean => match(actual, matcher).length === 0;

describe('literals: deep partial equality', () => {
  it('objects: the listed keys must match, others are ignored', () => {
    expect(ok({ a: 1, b: 2 }, { a: 1 })).toBe(true);
    expect(ok({ a: 1 }, { a: 2 })).toBe(false);
    expect(ok({ a: { b: { c: 'x', d: 1 } } }, { a: { b: { c: 'x' } } })).toBe(true);
    expect(ok({ a: 1 }, { z: 1 })).toBe(false);
    expect(ok([1], { a: 1 })).toBe(false);
    expect(ok(null, { a: 1 })).toBe(false);
  });

  it('arrays: same length, element by element (elements match partially)', () => {
    expect(ok([1, 2], [1, 2])).toBe(true);
    expect(ok([1, 2, 3], [1, 2])).toBe(false);
    expect(ok([{ id: 1, x: 'extra' }], [{ id: 1 }])).toBe(true);
    expect(ok('12', [1, 2])).toBe(false);
  });

  it('scalars compare by text, so form and XML values match numbers and booleans', () => {
    expect(ok('10', 10)).toBe(true);
    expect(ok(10, '10')).toBe(true);
    expect(ok('true', true)).toBe(true);
    expect(ok(10n, 10)).toBe(true);
    expect(ok(9007199254740993n, '9007199254740993')).toBe(true);
    expect(ok(9007199254740992n, '9007199254740993')).toBe(false);
    expect(ok('10', 11)).toBe(false);
  });

  it('null and absent are not text: they only match themselves', () => {
    expect(ok(null, null)).toBe(true);
    expect(ok(undefined, null)).toBe(false);
    expect(ok('null', null)).toBe(false);
    expect(ok(null, 'null')).toBe(false);
    expect(ok(undefined, '')).toBe(false);
  });

  it('reports where, what was expected and what was found', () => {
    expect(match({ a: { list: [1, 'x'] }, 'odd-key': 1 }, { a: { list: [1, 'y'] }, 'odd-key': 2 })).toEqual([
      { path: '$.a.list[1]', message: 'expected "y", got "x"', expected: 'y', actual: 'x' },
      { path: "$['odd-key']", message: 'expected 2, got 1', expected: 2, actual: 1 },
    ]);
    expect(match(undefined, { a: 1 }, {}, 'header x')[0]?.path).toBe('header x');
  });
});

describe('$equals: exact, typed equality', () => {
  it('does not accept text for a number', () => {
    expect(ok('10', { $equals: 10 })).toBe(false);
    expect(ok(10, { $equals: 10 })).toBe(true);
  });
  it('is whole: extra keys and other lengths fail', () => {
    expect(ok({ a: 1, b: 2 }, { $equals: { a: 1 } })).toBe(false);
    expect(ok({ a: 1 }, { $equals: { a: 1 } })).toBe(true);
    expect(ok([1, [2]], { $equals: [1, [2]] })).toBe(true);
  });
  it('compares integers exactly across number and bigint', () => {
    expect(ok(9007199254740993n, { $equals: 9007199254740993n })).toBe(true);
    expect(ok(9007199254740992n, { $equals: 9007199254740993n })).toBe(false);
    expect(ok(5n, { $equals: 5 })).toBe(true);
    expect(ok(1.5, { $equals: 1.5 })).toBe(true);
    expect(ok(1.5, { $equals: 2.5 })).toBe(false);
    expect(match(9007199254740992n, { $equals: 9007199254740993n })[0]?.message).toBe('expected exactly 9007199254740993, got 9007199254740992');
  });
  it('compares bytes by content', () => {
    expect(deepEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(deepEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
  });
  it('ignores keys whose value is undefined', () => {
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  });
});

describe('text and length operators', () => {
  it('$pattern matches text with a Unicode regular expression; non-text fails', () => {
    expect(ok('1.0', { $pattern: '^\\d+\\.\\d+$' })).toBe(true);
    expect(ok('v1', { $pattern: '^\\d' })).toBe(false);
    expect(ok('zoë', { $pattern: '^\\p{L}+$' })).toBe(true);
    expect(ok(10, { $pattern: '^10$' })).toBe(false);
  });
  it('$length, $minLength, $maxLength count characters (not UTF-16 units), items and bytes', () => {
    expect(ok('李雷', { $length: 2 })).toBe(true);
    expect(ok('😀', { $length: 1 })).toBe(true);
    expect(ok([1, 2, 3], { $length: 3 })).toBe(true);
    expect(ok(new Uint8Array(4), { $length: 4 })).toBe(true);
    expect(ok('abc', { $minLength: 3 })).toBe(true);
    expect(ok('ab', { $minLength: 3 })).toBe(false);
    expect(ok('abcd', { $maxLength: 3 })).toBe(false);
    expect(ok(12345, { $length: 5 })).toBe(false);
    expect(match('ab', { $minLength: 3 })[0]?.message).toBe('expected minLength 3, got length 2');
  });
  it('$contains: a substring of text, or an item of an array that matches', () => {
    expect(ok('hello world', { $contains: 'lo w' })).toBe(true);
    expect(ok('hello', { $contains: 'x' })).toBe(false);
    expect(ok([{ id: 1, n: 'a' }, { id: 2 }], { $contains: { id: 2 } })).toBe(true);
    expect(ok([1, 2], { $contains: 3 })).toBe(false);
    expect(ok({ a: 1 }, { $contains: 1 })).toBe(false);
  });
});

describe('$type', () => {
  it.each([
    ['x', 'string'],
    [1, 'integer'],
    [1, 'number'],
    [1.5, 'number'],
    [9007199254740993n, 'integer'],
    [true, 'boolean'],
    [{}, 'object'],
    [[], 'array'],
    [null, 'null'],
  ])('%s is a %s', (v, t) => expect(ok(v, { $type: t })).toBe(true));

  it.each([
    [1.5, 'integer'],
    ['1', 'integer'],
    [[], 'object'],
    [null, 'object'],
    [undefined, 'null'],
  ])('%s is not a %s', (v, t) => expect(ok(v, { $type: t })).toBe(false));

  it('names the type found', () => {
    expect(typeName(undefined)).toBe('absent');
    expect(match(undefined, { $type: 'string' })[0]?.message).toBe('expected a string, got absent');
  });
});

describe('presence', () => {
  it('$absent: true holds only for no value (null is a value)', () => {
    expect(ok(undefined, { $absent: true })).toBe(true);
    expect(ok(null, { $absent: true })).toBe(false);
    expect(ok('', { $absent: true })).toBe(false);
    expect(ok('x', { $absent: false })).toBe(true);
    expect(ok(undefined, { $absent: false })).toBe(false);
  });
  it('$present: true holds for any value, null and empty text included', () => {
    expect(ok(null, { $present: true })).toBe(true);
    expect(ok('', { $present: true })).toBe(true);
    expect(ok(undefined, { $present: true })).toBe(false);
    expect(ok(undefined, { $present: false })).toBe(true);
  });
  it('inside an object, a key can be required absent', () => {
    expect(ok({ a: 1 }, { error: { $absent: true } })).toBe(true);
    expect(ok({ error: 'x' }, { error: { $absent: true } })).toBe(false);
  });
  it('$any accepts everything, absence included', () => {
    expect(ok(undefined, { $any: true })).toBe(true);
  });
});

describe('comparison', () => {
  it('$gte $lte $gt $lt on numbers, bigints and numeric text', () => {
    expect(ok(5, { $gte: 5 })).toBe(true);
    expect(ok(5, { $gt: 5 })).toBe(false);
    expect(ok(4, { $lt: 5 })).toBe(true);
    expect(ok(5, { $lte: 4 })).toBe(false);
    expect(ok('10', { $gt: 9 })).toBe(true);
    expect(ok(9007199254740993n, { $gt: 9007199254740992n })).toBe(true);
    expect(ok('9007199254740993', { $gt: 9007199254740992n })).toBe(true);
    expect(ok(2.5, { $gte: 2, $lte: 3 })).toBe(true);
  });
  it('non-numbers never compare', () => {
    expect(ok('abc', { $gt: 1 })).toBe(false);
    expect(ok(undefined, { $lt: 1 })).toBe(false);
    expect(ok('', { $lte: 1 })).toBe(false);
  });
});

describe('combinators', () => {
  it('$oneOf: any of the alternatives, each a matcher', () => {
    expect(ok('slow_down', { $oneOf: ['authorization_pending', 'slow_down'] })).toBe(true);
    expect(ok('x', { $oneOf: ['a', 'b'] })).toBe(false);
    expect(ok(7, { $oneOf: [{ $lt: 0 }, { $gt: 5 }] })).toBe(true);
  });
  it('$not: fails when the inner matcher holds', () => {
    expect(ok('a', { $not: 'b' })).toBe(true);
    expect(ok('a', { $not: 'a' })).toBe(false);
    expect(ok(undefined, { $not: { $absent: true } })).toBe(false);
  });
  it('$all: every matcher holds, each mismatch reported', () => {
    expect(ok(9007199254740993n, { $all: [{ $type: 'integer' }, { $equals: 9007199254740993n }] })).toBe(true);
    expect(match('x', { $all: [{ $type: 'integer' }, { $equals: 1 }] })).toHaveLength(2);
  });
  it('$each: every item of an array matches, with the index in the path', () => {
    expect(ok([1, 2, 3], { $each: { $gt: 0 } })).toBe(true);
    expect(match([1, -2, 3], { $each: { $gt: 0 } }).map((m) => m.path)).toEqual(['$[1]']);
    expect(ok([], { $each: { $gt: 0 } })).toBe(true);
    expect(ok('123', { $each: { $gt: 0 } })).toBe(false);
  });
  it('several operators on one object all apply', () => {
    expect(match('abc', { $type: 'string', $minLength: 5, $pattern: '^x' })).toHaveLength(2);
  });
});

describe('$schema', () => {
  it('asks the context to validate and reports its errors', () => {
    const ctx = { schema: (name: string, v: unknown) => ({ problems: typeof v === 'object' ? [] : [`the value: expected an object, got 1`], raw: [{ schema: name }] }) };
    expect(match({}, { $schema: 'demo/greeting' }, ctx)).toEqual([]);
    const [m] = match(1, { $schema: 'demo/greeting' }, ctx);
    // the sentence leads, then the schema; the validator's own errors are kept aside
    expect(m?.message).toBe('the value: expected an object, got 1 [schema demo/greeting]');
    expect(m?.path).toBe('');
    expect(m?.detail).toEqual({ schema: 'demo/greeting', errors: [{ schema: 'demo/greeting' }] });
  });
  it('fails, never passes, without a schema registry', () => {
    expect(ok({}, { $schema: 'demo/greeting' })).toBe(false);
  });
});

describe('operator objects', () => {
  it('an object whose keys all start with $ is an operator object', () => {
    expect(isOperatorObject({ $pattern: 'x' })).toBe(true);
    expect(isOperatorObject({ $pattern: 'x', a: 1 })).toBe(false);
    expect(isOperatorObject({})).toBe(false);
    expect(isOperatorObject(['$x'])).toBe(false);
  });
  it('unknown operators are listed for the loader, and fail when matched', () => {
    expect(unknownOperators({ $equals: 1, $regex: 'x', $eq: 1 })).toEqual(['$regex', '$eq']);
    expect(match(1, { $regex: 'x' })[0]?.message).toBe('unknown matcher $regex');
  });
});

describe('show', () => {
  it('renders bigints with every digit, bytes by length, long values shortened', () => {
    expect(show(9007199254740993n)).toBe('9007199254740993');
    expect(show({ id: 9007199254740993n, neg: -1n })).toBe('{"id":9007199254740993,"neg":-1}');
    expect(show(new Uint8Array(3))).toBe('<3 bytes>');
    expect(show(undefined)).toBe('(absent)');
    expect(show('x'.repeat(400))).toHaveLength(301);
  });
});
