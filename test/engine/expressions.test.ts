import { describe, expect, it } from 'vitest';
import { compile, hasExpression, resolveDeep, resolveString, stringify } from '../../src/engine/expressions.js';
import { SpecgateError } from '../../src/errors.js';

const scope = {
  vars: { a: 5, s: '7', name: 'x', big: 9007199254740993n, obj: { k: [1, { z: 'deep' }] }, nul: null, f: 1.5, t: true, bytes: new Uint8Array([104, 105]) },
  env: { DEMO_TOKEN: 'tok' },
};
const r = (s: string): unknown => resolveString(s, scope);

function errorOf(f: () => unknown): SpecgateError {
  try {
    f();
  } catch (e) {
    if (e instanceof SpecgateError) return e;
    throw e;
  }
  throw new Error('expected a SpecgateError');
}

describe('a string that is exactly one expression keeps the value type', () => {
  it.each([
    ['${a}', 5],
    ['${s}', '7'],
    ['${t}', true],
    ['${nul}', null],
    ['${big}', 9007199254740993n],
    ["${'lit'}", 'lit'],
    ['${obj.k[1].z}', 'deep'],
  ])('%s', (text, value) => expect(r(text)).toEqual(value));

  it('objects and byte arrays are passed as they are, not copied to text', () => {
    expect(r('${obj}')).toBe(scope.vars.obj);
    expect(r('${bytes}')).toBe(scope.vars.bytes);
  });

  it('whitespace around the expression makes it text', () => {
    expect(r(' ${a}')).toBe(' 5');
  });
});

describe('text with expressions inside', () => {
  it('joins the parts as text', () => {
    expect(r('n=${a}&m=${name}')).toBe('n=5&m=x');
    expect(r('${name}${a}')).toBe('x5');
  });
  it('writes objects as JSON (bigint digits exact), null as empty, bytes as UTF-8', () => {
    expect(r('o=${obj}')).toBe('o={"k":[1,{"z":"deep"}]}');
    expect(r('[${nul}]')).toBe('[]');
    expect(r('${bytes}!')).toBe('hi!');
    expect(stringify({ id: 9007199254740993n })).toBe('{"id":"9007199254740993"}');
  });
  it('leaves text without ${ alone, dollar signs and braces included', () => {
    expect(r('a $ b {c} $x')).toBe('a $ b {c} $x');
    expect(hasExpression('a $ b')).toBe(false);
    expect(hasExpression('${a}')).toBe(true);
  });
});

describe('arithmetic', () => {
  it.each([
    ['${a + 5}', 10],
    ['${a - 7}', -2],
    ['${a * 2}', 10],
    ['${a / 2}', 2.5],
    ['${a % 3}', 2],
    ['${-a}', -5],
    ['${(a + 1) * 2}', 12],
    ['${a + 1 * 2}', 7],
    ['${f * 2}', 3],
  ])('%s = %s', (text, value) => expect(r(text)).toBe(value));

  it('numeric text (form-encoded values) counts as a number in +, other text concatenates', () => {
    expect(r('${s + 1}')).toBe(8);
    expect(r('${name + 1}')).toBe('x1');
    expect(r("${'a' + 'b'}")).toBe('ab');
  });

  it('integers beyond 2^53 stay exact (bigint) through + - * / %', () => {
    expect(r('${big + 1}')).toBe(9007199254740994n);
    expect(r('${big - 1}')).toBe(9007199254740992n);
    expect(r('${big * 2}')).toBe(18014398509481986n);
    expect(r('${big / 2}')).toBe(4503599627370496n);
    expect(r('${big % 10}')).toBe(3n);
    expect(r('${9007199254740993}')).toBe(9007199254740993n);
    expect(r('${9007199254740993 - big}')).toBe(0n);
    // an int64 id carried as text (form, XML) also computes exactly
    expect(resolveString('${id + 1}', { vars: { id: '9007199254740993' } })).toBe(9007199254740994n);
  });

  it('refuses to mix a fraction with an integer beyond 2^53 (it would be cut off)', () => {
    const e = errorOf(() => r('${1.5 + big}'));
    expect(e.code).toBe('SG_EXPRESSION');
    expect(e.message).toMatch(/mixes a fraction with an integer beyond 2\^53/);
  });

  it('division by zero is an error, for numbers and bigints alike', () => {
    expect(errorOf(() => r('${a / 0}')).message).toBe('division by zero in "${a / 0}"');
    expect(errorOf(() => r('${a % 0}')).code).toBe('SG_EXPRESSION');
    expect(errorOf(() => r('${big / 0}')).message).toBe('division by zero in "${big / 0}"');
  });

  it('text that is not a number cannot take part in - * / %', () => {
    const e = errorOf(() => r('${name * 2}'));
    expect(e.code).toBe('SG_EXPRESSION');
    expect(e.message).toBe('"x" is not a number, in "${name * 2}"');
  });
});

describe('environment', () => {
  it('reads ${env:NAME} from the scope', () => {
    expect(r('${env:DEMO_TOKEN}')).toBe('tok');
    expect(r('Bearer ${env:DEMO_TOKEN}')).toBe('Bearer tok');
  });
  it('says which variable to export when it is unset', () => {
    const e = errorOf(() => r('${env:DEMO_NOT_SET}'));
    expect(e.code).toBe('SG_EXPRESSION');
    expect(e.message).toBe('environment variable DEMO_NOT_SET is not set (used in "${env:DEMO_NOT_SET}"): export it before running specgate');
  });
});

describe('unknown variables', () => {
  it('names the variable and the ones known here', () => {
    const e = errorOf(() => resolveString('${tokn}', { vars: { token: 't', base_url: 'u' } }));
    expect(e.code).toBe('SG_EXPRESSION');
    expect(e.message).toBe('unknown variable "tokn" in "${tokn}"; known here: token, base_url');
  });
  it('says "(none)" when no variable is known', () => {
    expect(errorOf(() => resolveString('${x}', { vars: {} })).message).toMatch(/known here: \(none\)$/);
  });
  it('a missing field of a known variable is undefined (captures may be absent), not an error', () => {
    expect(r('${obj.missing}')).toBeUndefined();
    expect(r('${obj.k[7]}')).toBeUndefined();
  });
});

describe('syntax errors', () => {
  it.each([
    ['${a +}', 'it ends where a value is expected'],
    ['${}', 'it is empty'],
    ['${a b}', 'unexpected "b"'],
    ['${(a + 1}', 'missing ")"'],
    ["${'open}", 'add the closing "}" (or close the quoted string inside it)'],
    ['${a # 1}', 'unexpected "# 1"'],
  ])('%s: %s', (text, what) => {
    const e = errorOf(() => compile(text));
    expect(e.code).toBe('SG_EXPRESSION');
    expect(e.message).toContain(what);
    expect(e.message).toContain(JSON.stringify(text));
  });
  it('an unclosed ${ says to add the brace', () => {
    expect(errorOf(() => compile('url ${base_url/x')).message).toBe('unclosed "${" in "url ${base_url/x": add the closing "}"');
  });
  it('compile finds syntax errors without any variables (the loader checks files early)', () => {
    expect(() => compile('${nothing_known + 1}')).not.toThrow();
  });
});

describe('resolveDeep', () => {
  it('resolves strings inside objects and arrays and passes other values through', () => {
    const out = resolveDeep({ url: '${name}/x', n: '${a}', list: ['${t}', 3, null], nested: { big: '${big}' }, bytes: scope.vars.bytes }, scope);
    expect(out).toEqual({ url: 'x/x', n: 5, list: [true, 3, null], nested: { big: 9007199254740993n }, bytes: scope.vars.bytes });
  });
});

describe('templates and expressions kept once parsed', () => {
  it('resolves each string with its own text when strings share an expression', () => {
    expect(r('${name}/item/1')).toBe('x/item/1');
    expect(r('${name}/item/2')).toBe('x/item/2');
    expect(r('${name}')).toBe('x');
  });

  it('names the whole string of each bad expression, however many strings hold it', () => {
    expect(errorOf(() => compile('first ${a +}')).message).toContain('"first ${a +}"');
    expect(errorOf(() => compile('second ${a +}')).message).toContain('"second ${a +}"');
  });

  it('resolves every string of a suite with more distinct strings than are kept (one URL a case)', () => {
    for (let i = 0; i < 25_000; i++) if (resolveString(`\${name}/item/${i}?n=\${a + ${i}}`, scope) !== `x/item/${i}?n=${5 + i}`) throw new Error(`string ${i} resolved wrong`);
    expect(resolveString('${name}/item/7?n=${a + 7}', scope)).toBe('x/item/7?n=12');
  });
});
