import { describe, expect, it } from 'vitest';
import { SpecgateError } from '../../src/errors.js';
import { bodyKind, parseBody, parseForm, parseJsonLossless } from '../../src/targets/body-parse.js';
import { encodeForm, encodeJson } from '../../src/targets/request-body.js';

describe('body parsing', () => {
  it('classifies media types, ignoring parameters and case', () => {
    expect(bodyKind('Application/JSON; charset=UTF-8')).toBe('json');
    expect(bodyKind('application/vnd.api+json')).toBe('json');
    expect(bodyKind('application/x-www-form-urlencoded')).toBe('form');
    expect(bodyKind('text/xml; charset=iso-8859-1')).toBe('xml');
    expect(bodyKind('application/atom+xml')).toBe('xml');
    expect(bodyKind('text/html')).toBeUndefined();
    expect(bodyKind(undefined)).toBeUndefined();
  });

  it('keeps every digit of integers beyond 2^53, and numbers within it as numbers', () => {
    expect(parseJsonLossless('9007199254740993')).toBe(9007199254740993n);
    expect(parseJsonLossless('9007199254740991')).toBe(9007199254740991);
    expect(parseJsonLossless('[9007199254740992, 1234567890123456, 0.12345678901234567]')).toEqual([9007199254740992n, 1234567890123456, 0.12345678901234567]);
    expect(parseJsonLossless('{"a":{"b":[18446744073709551615]}}')).toEqual({ a: { b: [18446744073709551615n] } });
    // A long digit run inside a string takes the lossless path but stays a string.
    expect(parseJsonLossless('{"s":"12345678901234567890","n":1e300}')).toEqual({ s: '12345678901234567890', n: 1e300 });
  });

  it('keeps the last of duplicate keys on both paths, as JSON.parse does', () => {
    expect(parseJsonLossless('{"a":1,"a":2}')).toEqual({ a: 2 });
    expect(parseJsonLossless('{"a":1,"a":99999999999999999}')).toEqual({ a: 99999999999999999n });
  });

  it('does not let a form key reach the prototype', () => {
    const out = parseForm('__proto__=x&a=1&a=2');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(out.a).toBe('1');
  });

  it('reports parse errors per format', () => {
    expect(parseBody('application/json', '{').parseError).toMatch(/^json body does not parse/);
    expect(parseBody('application/xml', '<a><b></a>').parseError).toMatch(/^xml body is not well-formed/);
    expect(parseBody('text/plain', '{')).toEqual({ body: undefined });
  });
});

describe('request body encoding', () => {
  it('writes bigint digits exactly into JSON', () => {
    expect(encodeJson({ id: 9007199254740993n, n: 1, s: 'x' })).toBe('{"id":9007199254740993,"n":1,"s":"x"}');
    expect(encodeJson([-9223372036854775808n])).toBe('[-9223372036854775808]');
    expect(encodeJson({ a: 1 })).toBe('{"a":1}');
    expect(encodeJson(undefined)).toBe('null');
  });

  it('round-trips int64 values through encodeJson and parseJsonLossless', () => {
    const value = { ids: [9223372036854775807n, -9007199254740993n, 42], nested: { x: 18446744073709551615n } };
    expect(parseJsonLossless(encodeJson(value))).toEqual(value);
  });

  it('still refuses circular structures', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => encodeJson(a)).toThrow(TypeError);
  });

  it('form-encodes scalars, lists and spaces as +', () => {
    expect(encodeForm({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', n: 5, b: true, scope: 'a b', skip: undefined, empty: null }))
      .toBe('grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&n=5&b=true&scope=a+b&empty=');
    expect(encodeForm({ id: [1, 2], big: 9007199254740993n })).toBe('id=1&id=2&big=9007199254740993');
  });

  it('refuses nested objects in a form with a clear error', () => {
    expect(() => encodeForm({ a: { b: 1 } })).toThrow(SpecgateError);
    expect(() => encodeForm({ a: { b: 1 } })).toThrow(/form field "a" is an object/);
  });
});
