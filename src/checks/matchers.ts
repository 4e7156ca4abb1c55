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
  /** What the message was made from, for machine readers (a schema's own errors). */
  detail?: unknown;
}

/** What a value breaks of a JSON Schema: plain sentences, and the validator's own errors. */
export interface SchemaVerdict {
  problems: string[];
  raw?: unknown[];
}

/** Sentences of a schema failure a message lists; the rest are counted. */
const LISTED_SCHEMA_PROBLEMS = 10;

export interface MatchContext {
  /** Validate against a registered JSON Schema (no problems when valid). */
  schema?(name: string, value: unknown): SchemaVerdict;
  /**
   * The format of the body being matched, when the value is a decoded body: typed comparisons
   * then say what they compared, since form-encoded and XML bodies carry nothing but text.
   */
  bodyFormat?: BodyFormat;
  /** Filled in by every `$each` met: how many ran, how many items they judged, the paths of empty lists (evidence counts). */
  each?: { calls: number; items: number; empty: string[] };
}

/** A decoded body's format (`kind`), and the one its request asked for (`asked`), when known. */
export interface BodyFormat {
  kind: 'json' | 'form' | 'xml';
  asked?: 'json' | 'form' | 'xml';
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

/** {@link match}, adding the mismatches to `out` (no list per part of an expectation). */
export function matchInto(out: Mismatch[], actual: unknown, matcher: unknown, ctx: MatchContext, path: string): void {
  walk(actual, matcher, ctx, path, out);
}

function walk(actual: unknown, m: unknown, ctx: MatchContext, path: string, out: Mismatch[]): void {
  if (m === null || typeof m !== 'object') {
    if (!scalarEqual(actual, m)) out.push({ path, message: `expected ${show(m)}, got ${show(actual)}`, expected: m, actual });
    return;
  }
  walkInside(actual, m, ctx, path, out);
}

/**
 * Walks the items or fields of a list or object matcher. A scalar item or field that matches
 * needs no path, so its path is made only when it does not (most of an expectation is scalars).
 */
function walkInside(actual: unknown, m: object, ctx: MatchContext, path: string, out: Mismatch[]): void {
  if (Array.isArray(m)) {
    if (!Array.isArray(actual)) return void out.push({ path, message: 'expected an array', expected: m, actual });
    if (actual.length !== m.length)
      return void out.push({ path, message: `expected ${m.length} items, got ${actual.length}`, expected: m, actual });
    for (let i = 0; i < m.length; i++) {
      if (!(i in m)) continue; // a hole matches anything, as forEach skips it
      const item: unknown = m[i];
      if (item === null || typeof item !== 'object') {
        if (!scalarEqual(actual[i], item)) walk(actual[i], item, ctx, `${path}[${i}]`, out);
      } else walkInside(actual[i], item, ctx, `${path}[${i}]`, out);
    }
    return;
  }
  const keys = Object.keys(m);
  const record = m as Record<string, unknown>;
  let operators = keys.length > 0;
  for (const k of keys) if (!isOperatorName(k)) operators = false;
  if (operators) {
    for (const op of keys) operator(op, record[op], actual, ctx, path, out);
    return;
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
    return void out.push({ path, message: 'expected an object', expected: m, actual });
  const fields = actual as Record<string, unknown>;
  for (const k of keys) {
    const field = record[k];
    if (field === null || typeof field !== 'object') {
      if (!scalarEqual(fields[k], field)) walk(fields[k], field, ctx, childPath(path, k), out);
    } else walkInside(fields[k], field, ctx, childPath(path, k), out);
  }
}

function isOperatorName(key: string): boolean {
  return key.startsWith('$');
}

function operator(op: string, arg: unknown, actual: unknown, ctx: MatchContext, path: string, out: Mismatch[]): void {
  const fail = (message: string): void => void out.push({ path, message, expected: { [op]: arg }, actual });
  switch (op) {
    case '$equals':
      if (!deepEqual(actual, arg)) fail(ctx.bodyFormat ? typedEquals(arg, actual, ctx.bodyFormat) : `expected exactly ${show(arg)}, got ${show(actual)}`);
      return;
    case '$pattern':
      if (typeof actual !== 'string' || !new RegExp(String(arg), 'u').test(actual))
        fail(`expected text matching /${String(arg)}/, got ${ctx.bodyFormat ? `${compared(actual, ctx.bodyFormat)}${formatNote(actual, ctx.bodyFormat, true)}` : show(actual)}`);
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
      if (typeName(actual) !== arg && !(arg === 'number' && typeName(actual) === 'integer'))
        fail(`expected ${withArticle(String(arg))}, got ${ctx.bodyFormat && actual !== undefined ? `${compared(actual, ctx.bodyFormat)}${formatNote(actual, ctx.bodyFormat)}` : typeName(actual)}`);
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
      const verdict = ctx.schema ? ctx.schema(String(arg), actual) : { problems: [`no schema registry to check ${String(arg)}`] };
      const { problems } = verdict;
      if (problems.length === 0) return;
      // the sentences lead, so a reader sees what to fix first; the value as a whole needs no `$:` before them
      const more = problems.length > LISTED_SCHEMA_PROBLEMS ? `; and ${problems.length - LISTED_SCHEMA_PROBLEMS} more` : '';
      const message = `${problems.slice(0, LISTED_SCHEMA_PROBLEMS).join('; ')}${more} [schema ${String(arg)}]${ctx.bodyFormat ? schemaNote(ctx.bodyFormat) : ''}`;
      out.push({ path: path === '$' ? '' : path, message, expected: { [op]: arg }, actual, ...(verdict.raw ? { detail: { schema: String(arg), errors: verdict.raw } } : {}) });
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
      if (ok) return;
      // text that holds no number cannot be compared at all, which the message says
      const notNumber = a === undefined && typeof actual === 'string' && ctx.bodyFormat ? `, which is not a number${formatNote(actual, ctx.bodyFormat)}` : '';
      fail(`expected ${op.slice(1)} ${show(arg)}, got ${ctx.bodyFormat ? compared(actual, ctx.bodyFormat) : show(actual)}${notNumber}`);
      return;
    }
    case '$all':
      for (const m of Array.isArray(arg) ? arg : [arg]) walk(actual, m, ctx, path, out);
      return;
    case '$each':
      if (!Array.isArray(actual)) return fail('expected an array');
      if (ctx.each) {
        ctx.each.calls += 1;
        ctx.each.items += actual.length;
        if (actual.length === 0) ctx.each.empty.push(path);
      }
      actual.forEach((x, i) => walk(x, arg, ctx, `${path}[${i}]`, out));
      return;
    default:
      fail(`unknown matcher ${op}`);
  }
}

/** A schema's types mean nothing to a text-only body: its failure says what the body was. */
function schemaNote(format: BodyFormat): string {
  return format.kind === 'json' ? '' : formatNote('', format);
}

/** "an integer", "a string". */
function withArticle(type: string): string {
  return `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type}`;
}

const FORMAT_NAMES = { json: 'JSON', form: 'form-encoded', xml: 'XML' } as const;

/** What a typed comparison looked at in a decoded body: "the text "900"", "the number 900". */
function compared(actual: unknown, format: BodyFormat): string {
  if (actual === undefined) return show(actual);
  if (typeof actual === 'string') return `${format.kind === 'json' ? 'the string' : 'the text'} ${show(actual)}`;
  if (typeof actual === 'number' || typeof actual === 'bigint') return `the number ${show(actual)}`;
  if (typeof actual === 'boolean') return `the boolean ${show(actual)}`;
  return show(actual);
}

/**
 * Why a typed comparison on a decoded body came out as it did: form-encoded and XML bodies hold
 * only text, so a type expected of their values can never be there; a JSON body's types are the
 * target's own. Empty for a value the format does not explain (an object, a missing field).
 */
function formatNote(actual: unknown, format: BodyFormat, wantsText = false): string {
  const asked = format.asked && format.asked !== format.kind ? `, although the request asked for ${FORMAT_NAMES[format.asked]}` : '';
  const text = typeof actual === 'string';
  const typed = typeof actual === 'number' || typeof actual === 'bigint' || typeof actual === 'boolean';
  if (text && !wantsText && format.kind === 'form') return ` (the answer was form-encoded, which carries no types${asked})`;
  if (text && !wantsText && format.kind === 'xml') return ` (the answer was XML, which carries only text${asked})`;
  if (typed && wantsText && format.kind === 'json') return ` (the answer was JSON, where this value is not text${asked})`;
  return asked && (text || typed) ? ` (the answer was ${FORMAT_NAMES[format.kind]}${asked})` : '';
}

/**
 * `$equals` on a decoded body: names the type the suite expects and the text or value the body
 * held, and, when only the type differs in a text-only format, that a literal compares the text.
 */
function typedEquals(arg: unknown, actual: unknown, format: BodyFormat): string {
  const scalar = typeof arg === 'number' || typeof arg === 'bigint' || typeof arg === 'boolean';
  const expectedType = scalar && typeof actual === 'string' ? ` (${withArticle(typeof arg === 'bigint' ? 'number' : typeof arg)})` : '';
  const note = formatNote(actual, format);
  const sameText = scalar && typeof actual === 'string' && format.kind !== 'json' && String(arg) === actual;
  const hint = sameText && note ? `${note.slice(0, -1)}; a literal ${show(arg)} without $equals compares the text)` : note;
  return `expected exactly ${show(arg)}${expectedType}, got ${compared(actual, format)}${hint}`;
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
  return isScalar(actual) && isScalar(expected) && String(actual) === String(expected);
}

function isScalar(x: unknown): boolean {
  const t = typeof x;
  return t === 'string' || t === 'number' || t === 'bigint' || t === 'boolean';
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
