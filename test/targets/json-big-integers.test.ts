import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonShape, parseJsonLossless, tooDeepError } from '../../src/targets/body-parse.js';
import { MAX_JSON_DEPTH } from '../../src/targets/json-depth.js';
import { losslessParse, parseWithBigIntegers } from '../../src/targets/json-big-integers.js';

/**
 * A value written out so that two parses compare exactly: keys in their order, `bigint` apart
 * from `number`, -0 apart from 0, a `__proto__` key apart from a prototype.
 */
function canon(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (typeof v === 'object') {
    if (Object.getPrototypeOf(v) !== Object.prototype) return 'object with another prototype';
    return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return `unexpected ${typeof v}`;
}

/** What a parse gives: its value, written out, or the error it throws. */
function outcome(parse: () => unknown): string {
  try {
    return `value ${canon(parse())}`;
  } catch (e) {
    return e instanceof Error ? `${e.constructor.name}: ${e.message}` : `thrown ${String(e)}`;
  }
}

/** The old way: a text with a 16-digit run, read whole by the lossless parser. */
function before(text: string): string {
  return outcome(() => losslessParse(text));
}
function after(text: string): string {
  return outcome(() => parseWithBigIntegers(text, jsonShape(text).bigIntegers));
}

const bigInteger = fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String);
const edgeInteger = fc.constantFrom('9007199254740991', '9007199254740992', '-9007199254740991', '-9007199254740992', '9007199254740993', '1234567890123456', '-1000000000000000', '18446744073709551615', '-0', '0');
const fraction = fc.constantFrom('0.12345678901234567890', '12345678901234567890.5', '1e400', '-1e-400', '12345678901234567890e2', '1.5E+1234567890123456', '2e-1234567890123456', '-0.0', '1E16', '-0e0');
const double = fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d));
const number = fc.oneof(bigInteger, edgeInteger, fraction, double);
// strings: varied unicode, escapes (a NUL among them), digits that must stay text
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('12345678901234567890', '\u0000', '\u00001234567890123456789', 'é', '😀', '\\', '"'),
);
const key = fc.oneof(fc.constantFrom('a', 'id', '__proto__', '12', '0', 'b'), text);
const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n');

/** JSON text: numbers as written, duplicate keys likely (keys from a small set), nesting several levels deep. */
const json = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    number,
    text.map((s) => JSON.stringify(s)),
    fc.constantFrom('true', 'false', 'null'),
    fc.tuple(fc.array(fc.tuple(space, tie('value'), space), { maxLength: 5 })).map(([items]) => `[${items.map(([a, v, b]) => a + v + b).join(',')}]`),
    fc.array(fc.tuple(key, space, tie('value')), { maxLength: 5 }).map((entries) => `{${entries.map(([k, s, v]) => `${JSON.stringify(k)}${s}:${s}${v}`).join(',')}}`),
  ),
})).value;

/** A text made invalid (or not) by one edit: a character dropped, doubled or put in. */
const edited = fc.tuple(json, fc.nat(), fc.constantFrom('drop', 'double', 'put'), fc.constantFrom('0', '-', '.', 'e', '"', ':', '{', '1', ',', ']')).map(([t, at, how, c]) => {
  const i = t.length === 0 ? 0 : at % t.length;
  if (how === 'drop') return t.slice(0, i) + t.slice(i + 1);
  if (how === 'double') return t.slice(0, i + 1) + t.slice(i);
  return t.slice(0, i) + c + t.slice(i);
});

describe('parseWithBigIntegers', () => {
  it('gives the lossless parser\'s value, or its error, for generated JSON', () => {
    fc.assert(
      fc.property(json, (t) => {
        expect(after(t)).toBe(before(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the lossless parser\'s value, or its error, for JSON with one edit', () => {
    fc.assert(
      fc.property(edited, (t) => {
        expect(after(t)).toBe(before(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps integers beyond a double as bigint at any place, and the rest as JSON.parse reads them', () => {
    const t = '{"id":7318349397264190956,"ids":[-9007199254740993, 9007199254740991],"x":{"__proto__":18446744073709551615,"f":12345678901234567890.5,"z":-0,"e":1E400},"id":12345678901234567891}';
    const v = parseWithBigIntegers(t, jsonShape(t).bigIntegers);
    expect(canon(v)).toBe('{"id":12345678901234567891n,"ids":[-9007199254740993n,9007199254740991],"x":{"__proto__":18446744073709551615n,"f":12345678901234567000,"z":-0,"e":Infinity}}');
    expect(after(t)).toBe(before(t));
  });

  it('leaves to the lossless parser what the native one must not read: a literal as a key, a leading zero, a text spelling a NUL', () => {
    for (const t of ['{12345678901234567890:1}', '[012345678901234567890]', '[-012345678901234567890]', '[12345678901234567890.]', '[1.12345678901234567890e]', '["\\u0000", 12345678901234567890]', '{"\\u00001": 12345678901234567890}', '12345678901234567890', '-12345678901234567890 x']) {
      expect(after(t)).toBe(before(t));
    }
    // a string of the text that spells a NUL is never taken for a mark
    expect(canon(parseJsonLossless('["\\u000012345678901234567890", 12345678901234567890]'))).toBe('["\\u000012345678901234567890",12345678901234567890n]');
  });

  it('finds where the literals beyond a double stand, and only those', () => {
    const t = '[12345678901234567890, "99999999999999999999", 1.12345678901234567890, 9007199254740991, -9007199254740993, 1e12345678901234567890]';
    const spans = jsonShape(t).bigIntegers;
    const found: string[] = [];
    for (let k = 0; k < spans.length; k += 2) found.push(t.slice(spans[k], spans[k + 1]));
    expect(found).toEqual(['12345678901234567890', '-9007199254740993']);
  });
});

/** parseJsonLossless as it was: the lossless parser for every text with a 16-digit run. */
function parsedBefore(text: string): unknown {
  const shape = text.length > MAX_JSON_DEPTH ? jsonShape(text) : { depth: 0, longDigits: /\d{16}/.test(text) };
  if (shape.depth > MAX_JSON_DEPTH) {
    JSON.parse(text);
    throw tooDeepError('the text', shape.depth);
  }
  return shape.longDigits ? losslessParse(text) : JSON.parse(text);
}

describe('parseJsonLossless', () => {
  it('gives what it gave before, value or error, for generated JSON, edited or not, short or long', () => {
    const padded = fc.tuple(fc.oneof(json, edited), fc.boolean()).map(([t, pad]) => (pad ? `${' '.repeat(MAX_JSON_DEPTH)}${t}` : t));
    fc.assert(
      fc.property(padded, (t) => {
        expect(outcome(() => parseJsonLossless(t))).toBe(outcome(() => parsedBefore(t)));
      }),
      { numRuns: 3000 },
    );
    for (const t of ['{"s":"12345678901234567890"', '["12345678901234567890", 01]', `${'['.repeat(300)}12345678901234567890${']'.repeat(300)}`, `${'['.repeat(300)}1`]) {
      expect(outcome(() => parseJsonLossless(t))).toBe(outcome(() => parsedBefore(t)));
    }
  });

  it('reads huge bodies with int64 ids and deep nesting as the lossless parser does', () => {
    const items = Array.from({ length: 3000 }, (_, i) => `{"id":${7318349397264190956n + BigInt(i) * 2097151n},"id_str":"${i}","n":${i}.5,"tags":["a","b"]}`);
    const t = `{"events":[${items.join(',')}],"deep":${'['.repeat(200)}1${']'.repeat(200)}}`;
    expect(canon(parseJsonLossless(t))).toBe(canon(losslessParse(t)));
    expect((parseJsonLossless(t) as { events: { id: unknown }[] }).events[2999]?.id).toBe(7318349397264190956n + 2999n * 2097151n);
  });
});
