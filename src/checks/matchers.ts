/**
 * Matchers for `expect` blocks. A literal matches by deep partial equality (an object's listed
 * keys must match, arrays element by element with the same length); scalars compare by their
 * text, so `10`, `"10"` and `10n` are equal — form-encoded and XML bodies carry only text. Use
 * `$equals` for exact, typed equality. Operators are objects whose keys all start with `$`.
 */
import { previewJson } from './value-preview.js';

export interface Mismatch {
  /** Where in the value, as a JSON path (`$.error`). */
  path: string;
  message: string;
  expected: unknown;
  actual: unknown;
}

export interface MatchContext {
  /** Validate against a registered JSON Schema; returns error texts (empty when valid). */
  schema?(name: string, value: unknown): string[];
}

const OPERATORS = new Set([
  '$equals', '$pattern', '$length', '$minLength', '$maxLength', '$type', '$oneOf', '$absent', '$present',
  '$schema', '$contains', '$not', '$gte', '$lte', '$gt', '$lt', '$all', '$each', '$any',
]);

/** Operator names, for the loader's checks of suite files. */
export function isOperatorObject(m: unknown): m is Record<string, unknown> {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return false;
  const keys = Object.keys(m);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

export function unknownOperators(m: Record<string, unknown>): string[] {
  return Object.keys(m).filter((k) => !OPERATORS.has(k));
}

/** All mismatches of `actual` against `matcher` (empty when it matches). */
export function match(actual: unknown, matcher: unknown, ctx: MatchContext = {}, path = '$'): Mismatch[] {
  const out: Mismatch[] = [];
  walk(actual, matcher, ctx, path, out);
  return out;
}

function walk(actual: unknown, m: unknown, ctx: MatchContext, path: string, out: Mismatch[]): void {
  if (isOperatorObject(m)) {
    for (const [op, arg] of Object.entries(m)) operator(op, arg, actual, ctx, path, out);
    return;
  }
  if (Array.isArray(m)) {
    if (!Array.isArray(actual)) return void out.push({ path, message: 'expected an array', expected: m, actual });
    if (actual.length !== m.length)
      return void out.push({ path, message: `expected ${m.length} items, got ${actual.length}`, expected: m, actual });
    m.forEach((item, i) => walk(actual[i], item, ctx, `${path}[${i}]`, out));
    return;
  }
  if (m !== null && typeof m === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return void out.push({ path, message: 'expected an object', expected: m, actual });
    for (const [k, v] of Object.entries(m)) walk((actual as Record<string, unknown>)[k], v, ctx, childPath(path, k), out);
    return;
  }
  if (!scalarEqual(actual, m)) out.push({ path, message: `expected ${show(m)}, got ${show(actual)}`, expected: m, actual });
}

function operator(op: string, arg: unknown, actual: unknown, ctx: MatchContext, path: string, out: Mismatch[]): void {
  const fail = (message: string): void => void out.push({ path, message, expected: { [op]: arg }, actual });
  switch (op) {
    case '$equals':
      if (!deepEqual(actual, arg)) fail(`expected exactly ${show(arg)}, got ${show(actual)}`);
      return;
    case '$pattern':
      if (typeof actual !== 'string' || !new RegExp(String(arg), 'u').test(actual)) fail(`expected text matching /${String(arg)}/, got ${show(actual)}`);
      return;
    case '$length':
    case '$minLength':
    case '$maxLength': {
      const len = lengthOf(actual);
      const n = Number(arg);
      const ok = len !== undefined && (op === '$length' ? len === n : op === '$minLength' ? len >= n : len <= n);
      if (!ok) fail(`expected ${op.slice(1)} ${n}, got ${len === undefined ? show(actual) : `length ${len}`}`);
      return;
    }
    case '$type':
      if (typeName(actual) !== arg && !(arg === 'number' && typeName(actual) === 'integer')) fail(`expected a ${String(arg)}, got ${typeName(actual)}`);
      return;
    case '$oneOf':
      if (!Array.isArray(arg) || !arg.some((c) => match(actual, c, ctx, path).length === 0)) fail(`expected one of ${show(arg)}, got ${show(actual)}`);
      return;
    case '$any':
      return;
    case '$absent':
      if ((actual !== undefined) === Boolean(arg)) fail(arg ? `expected no value, got ${show(actual)}` : 'expected a value, got none');
      return;
    case '$present':
      if ((actual === undefined) === Boolean(arg)) fail(arg ? 'expected a value, got none' : `expected no value, got ${show(actual)}`);
      return;
    case '$schema': {
      const errors = ctx.schema ? ctx.schema(String(arg), actual) : [`no schema registry to check ${String(arg)}`];
      if (errors.length) fail(`does not satisfy schema ${String(arg)}: ${errors.join('; ')}`);
      return;
    }
    case '$contains':
      if (typeof actual === 'string') {
        if (!actual.includes(String(arg))) fail(`expected text containing ${show(arg)}, got ${show(actual)}`);
      } else if (!Array.isArray(actual) || !actual.some((x) => match(x, arg, ctx).length === 0)) fail(`expected an item matching ${show(arg)}, got ${show(actual)}`);
      return;
    case '$not':
      if (match(actual, arg, ctx, path).length === 0) fail(`expected anything but ${show(arg)}, got ${show(actual)}`);
      return;
    case '$gte':
    case '$lte':
    case '$gt':
    case '$lt': {
      const a = toComparable(actual);
      const b = toComparable(arg);
      const ok = a !== undefined && b !== undefined && (op === '$gte' ? a >= b : op === '$lte' ? a <= b : op === '$gt' ? a > b : a < b);
      if (!ok) fail(`expected ${op.slice(1)} ${show(arg)}, got ${show(actual)}`);
      return;
    }
    case '$all':
      for (const m of Array.isArray(arg) ? arg : [arg]) walk(actual, m, ctx, path, out);
      return;
    case '$each':
      if (!Array.isArray(actual)) return fail('expected an array');
      actual.forEach((x, i) => walk(x, arg, ctx, `${path}[${i}]`, out));
      return;
    default:
      fail(`unknown matcher ${op}`);
  }
}

function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}['${key}']`;
}

function lengthOf(v: unknown): number | undefined {
  if (typeof v === 'string') return codePoints(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  return undefined;
}

/** Length in code points, counted without building an array of them (a body may be megabytes). */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // a high surrogate followed by a low one is one code point
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** JSON-ish type name; integers (and bigints) report `integer`. */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'absent';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function toComparable(v: unknown): number | bigint | undefined {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return /^-?\d+$/.test(v.trim()) ? BigInt(v.trim()) : Number(v);
  return undefined;
}

function scalarEqual(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if (expected === null || actual === null || actual === undefined || expected === undefined) return false;
  const scalar = (x: unknown): boolean => ['string', 'number', 'bigint', 'boolean'].includes(typeof x);
  return scalar(actual) && scalar(expected) && String(actual) === String(expected);
}

/** Exact structural equality (bigint-aware: 5n equals 5). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number'))
    return Number.isInteger(Number(a)) && Number.isInteger(Number(b)) && BigInt(a) === BigInt(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/**
 * Short, bigint-safe rendering for messages (an int64 is written as a number, not as text).
 * Bounded: a huge or deeply nested value is rendered only as far as the 300 characters shown.
 */
export function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return `<${v.length} bytes>`;
  return previewJson(v, 300) ?? String(v);
}
