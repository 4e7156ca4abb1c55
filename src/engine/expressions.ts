import { SpecgateError } from '../errors.js';

/**
 * `${...}` expressions in suite files: variables (`${device_code}`, `${case.uri}`,
 * `${items[0]}`), environment (`${env:NAME}`), literals and arithmetic (`${interval + 5}`).
 * A string that is exactly one expression keeps the value's type; otherwise the parts are
 * joined as text. Parsed templates are cached: the same strings are resolved on every case.
 */

type Node =
  | { k: 'num'; v: number | bigint }
  | { k: 'str'; v: string }
  | { k: 'var'; path: (string | number)[]; src: string }
  | { k: 'env'; name: string }
  | { k: 'neg'; a: Node }
  | { k: 'bin'; op: '+' | '-' | '*' | '/' | '%'; a: Node; b: Node };

type Part = string | Node;
interface Template {
  parts: Part[];
  /** The whole string is one expression. */
  single: boolean;
  /** The variables it reads, found when first asked for. */
  reads?: readonly string[];
}

const cache = new Map<string, Template>();
/**
 * Parsed expressions by their text (`base` of `${base}/item/7`), shared by the templates that
 * hold them (nodes are never changed once parsed): a suite of more distinct strings than
 * {@link CACHE_LIMIT} (one URL per case) parses each string's template again after the template
 * cache is cleared, but its few distinct expressions stay parsed.
 */
const parsed = new Map<string, Node>();
/** Templates (and expressions) kept at most: past it the cache starts again, so that memory stays bounded. */
const CACHE_LIMIT = 10_000;

export interface Scope {
  vars: Record<string, unknown>;
  env?: Record<string, string | undefined>;
}

/** True when the string holds at least one `${`. */
export function hasExpression(s: string): boolean {
  return s.includes('${');
}

/** Resolve one string. */
export function resolveString(s: string, scope: Scope): unknown {
  if (!s.includes('${')) return s;
  const t = compile(s);
  if (t.single) return evaluate(t.parts[0] as Node, scope, s);
  let out = '';
  for (const p of t.parts) out += typeof p === 'string' ? p : stringify(evaluate(p, scope, s));
  return out;
}

const literal = new WeakMap<object, boolean>();
/**
 * Below this many strings, objects and lists, walking a value again costs less than remembering
 * it (a WeakMap entry per value of every case): only larger values are remembered.
 */
const REMEMBER_FROM = 32;
/** Nodes the current {@link holdsExpression} walk has visited. */
let visited = 0;

/** True when some string inside holds an expression; counts what it visits in `visited`. */
function holdsExpression(value: object): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nodeHoldsExpression(value[i])) return true;
    return false;
  }
  for (const k of Object.keys(value)) if (nodeHoldsExpression((value as Record<string, unknown>)[k])) return true;
  return false;
}

function nodeHoldsExpression(x: unknown): boolean {
  visited++;
  if (typeof x === 'string') return x.includes('${');
  return x !== null && typeof x === 'object' && !(x instanceof Uint8Array) && holdsExpression(x);
}

/** True when no string inside holds an expression (large values remembered: suite values are never mutated). */
function isLiteral(value: object): boolean {
  const known = literal.get(value);
  if (known !== undefined) return known;
  visited = 0;
  const v = !holdsExpression(value);
  if (visited >= REMEMBER_FROM) literal.set(value, v);
  return v;
}

/**
 * Resolve expressions inside any YAML value (strings, arrays, objects); other values pass through.
 * A value without expressions is returned as is (not copied): callers treat results as read-only.
 */
export function resolveDeep(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return resolveString(value, scope);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array || isLiteral(value)) return value;
  if (Array.isArray(value)) return value.map((v) => resolveDeep(v, scope));
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const k of Object.keys(record)) out[k] = resolveDeep(record[k], scope);
  return out;
}

/** Text form of a value as it appears inside a larger string. */
export function stringify(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
}

/** Parse a string's template once; throws SG_EXPRESSION on a syntax error. Used by the loader to check files early. */
export function compile(s: string): Template {
  const hit = cache.get(s);
  if (hit) return hit;
  const parts: Part[] = [];
  let i = 0;
  while (i < s.length) {
    const start = s.indexOf('${', i);
    if (start < 0) {
      parts.push(s.slice(i));
      break;
    }
    if (start > i) parts.push(s.slice(i, start));
    const end = findClose(s, start + 2);
    if (end < 0) {
      const quoted = /['"]/.test(s.slice(start + 2));
      throw new SpecgateError('SG_EXPRESSION', `unclosed "\${" in ${JSON.stringify(s)}: add the closing "}"${quoted ? ' (or close the quoted string inside it)' : ''}`);
    }
    const text = s.slice(start + 2, end);
    let node = parsed.get(text);
    if (!node) {
      // a syntax error names the whole string it is in, and is not kept: every string holding it throws
      node = new Parser(text, s).parseAll();
      if (parsed.size >= CACHE_LIMIT) parsed.clear();
      parsed.set(text, node);
    }
    parts.push(node);
    i = end + 1;
  }
  const t: Template = { parts, single: parts.length === 1 && typeof parts[0] !== 'string' };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(s, t);
  return t;
}

/** The variable names (first path segment) a string's expressions read; `env:` reads are not variables. */
export function referencedVariables(s: string): string[] {
  return [...variablesOf(s)];
}

const NO_VARIABLES: readonly string[] = Object.freeze([]);

/**
 * {@link referencedVariables} as a list the caller only reads: found once per template (a
 * request step checks its URL's variables on every case). Throws SG_EXPRESSION as compile does.
 */
export function variablesOf(s: string): readonly string[] {
  if (!s.includes('${')) return NO_VARIABLES;
  const t = compile(s);
  if (t.reads) return t.reads;
  const out: string[] = [];
  const walk = (n: Node): void => {
    if (n.k === 'var') {
      const first = n.path[0];
      if (typeof first === 'string') out.push(first);
    } else if (n.k === 'neg') walk(n.a);
    else if (n.k === 'bin') {
      walk(n.a);
      walk(n.b);
    }
  };
  for (const p of t.parts) if (typeof p !== 'string') walk(p);
  t.reads = Object.freeze(out);
  return t.reads;
}

function findClose(s: string, from: number): number {
  let quote = '';
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '}') return i;
  }
  return -1;
}

class Parser {
  private pos = 0;
  constructor(
    private readonly src: string,
    private readonly whole: string,
  ) {}

  parseAll(): Node {
    const n = this.sum();
    this.ws();
    if (this.pos < this.src.length) this.error(`unexpected "${this.src.slice(this.pos)}"`);
    return n;
  }

  private error(what: string): never {
    throw new SpecgateError(
      'SG_EXPRESSION',
      `bad expression \${${this.src}} in ${JSON.stringify(this.whole)}: ${what}. Expressions take variables, numbers, 'strings', + - * / % and parentheses`,
    );
  }

  private ws(): void {
    while (this.src[this.pos] === ' ' || this.src[this.pos] === '\t') this.pos++;
  }

  private sum(): Node {
    let a = this.term();
    for (;;) {
      this.ws();
      const c = this.src[this.pos];
      if (c !== '+' && c !== '-') return a;
      this.pos++;
      a = { k: 'bin', op: c, a, b: this.term() };
    }
  }

  private term(): Node {
    let a = this.unary();
    for (;;) {
      this.ws();
      const c = this.src[this.pos];
      if (c !== '*' && c !== '/' && c !== '%') return a;
      this.pos++;
      a = { k: 'bin', op: c, a, b: this.unary() };
    }
  }

  private unary(): Node {
    this.ws();
    if (this.src[this.pos] === '-') {
      this.pos++;
      return { k: 'neg', a: this.unary() };
    }
    return this.primary();
  }

  private primary(): Node {
    this.ws();
    const rest = this.src.slice(this.pos);
    const c = rest[0];
    if (c === '(') {
      this.pos++;
      const n = this.sum();
      this.ws();
      if (this.src[this.pos] !== ')') this.error('missing ")"');
      this.pos++;
      return n;
    }
    if (c === '"' || c === "'") {
      const end = this.src.indexOf(c, this.pos + 1);
      if (end < 0) this.error('unclosed string');
      const v = this.src.slice(this.pos + 1, end);
      this.pos = end + 1;
      return { k: 'str', v };
    }
    const num = /^\d+(\.\d+)?/.exec(rest);
    if (num) {
      this.pos += num[0].length;
      const text = num[0];
      const asNum = Number(text);
      return { k: 'num', v: !num[1] && !Number.isSafeInteger(asNum) ? BigInt(text) : asNum };
    }
    const env = /^env:([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    if (env?.[1]) {
      this.pos += env[0].length;
      return { k: 'env', name: env[1] };
    }
    const path = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])*/.exec(rest);
    if (path) {
      this.pos += path[0].length;
      const segs: (string | number)[] = [];
      for (const m of path[0].matchAll(/([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]/g)) segs.push(m[1] ?? Number(m[2]));
      return { k: 'var', path: segs, src: path[0] };
    }
    return this.error(c === undefined ? (this.src.trim() === '' ? 'it is empty' : 'it ends where a value is expected') : `unexpected "${c}"`);
  }
}

function evaluate(n: Node, scope: Scope, whole: string): unknown {
  switch (n.k) {
    case 'num':
    case 'str':
      return n.v;
    case 'env': {
      const v = (scope.env ?? process.env)[n.name];
      if (v === undefined)
        throw new SpecgateError('SG_EXPRESSION', `environment variable ${n.name} is not set (used in ${JSON.stringify(whole)}): export it before running specgate`);
      return v;
    }
    case 'var':
      return lookup(n, scope.vars, whole);
    case 'neg': {
      const a = toNumber(evaluate(n.a, scope, whole), whole);
      return typeof a === 'bigint' ? -a : -a;
    }
    case 'bin':
      return binary(n.op, evaluate(n.a, scope, whole), evaluate(n.b, scope, whole), whole);
  }
}

function lookup(n: { path: (string | number)[]; src: string }, vars: Record<string, unknown>, whole: string): unknown {
  let cur: unknown = vars;
  for (const seg of n.path) {
    if (cur === null || cur === undefined || typeof cur !== 'object') {
      cur = undefined;
      break;
    }
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  if (cur === undefined) {
    const root = String(n.path[0]);
    if (!(root in vars)) {
      const known = Object.keys(vars).slice(0, 20).join(', ');
      throw new SpecgateError('SG_EXPRESSION', `unknown variable "${root}" in ${JSON.stringify(whole)}; known here: ${known || '(none)'}`);
    }
  }
  return cur;
}

function toNumber(v: unknown, whole: string): number | bigint {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) {
    const x = Number(v);
    return Number.isSafeInteger(x) || !/^-?\d+$/.test(v.trim()) ? x : BigInt(v.trim());
  }
  throw new SpecgateError('SG_EXPRESSION', `${JSON.stringify(v)} is not a number, in ${JSON.stringify(whole)}`);
}

function binary(op: '+' | '-' | '*' | '/' | '%', a: unknown, b: unknown, whole: string): unknown {
  if (op === '+' && (typeof a === 'string' || typeof b === 'string')) {
    const na = typeof a === 'string' ? Number(a) : NaN;
    const nb = typeof b === 'string' ? Number(b) : NaN;
    // "5" + 5 from a form-encoded body is arithmetic; "abc" + 5 is concatenation
    const numeric = (typeof a !== 'string' || (a.trim() !== '' && !Number.isNaN(na))) && (typeof b !== 'string' || (b.trim() !== '' && !Number.isNaN(nb)));
    if (!numeric) return stringify(a) + stringify(b);
  }
  let x = toNumber(a, whole);
  let y = toNumber(b, whole);
  if (typeof x === 'bigint' || typeof y === 'bigint') {
    // an integer beyond 2^53 only meets integers: a fraction would be silently cut off
    if ((typeof x === 'number' && !Number.isInteger(x)) || (typeof y === 'number' && !Number.isInteger(y)))
      throw new SpecgateError('SG_EXPRESSION', `${JSON.stringify(whole)} mixes a fraction with an integer beyond 2^53; only whole numbers combine with such integers`);
    if (typeof x === 'number') x = BigInt(x);
    if (typeof y === 'number') y = BigInt(y);
    if ((op === '/' || op === '%') && y === 0n) throw new SpecgateError('SG_EXPRESSION', `division by zero in ${JSON.stringify(whole)}`);
    switch (op) {
      case '+': return x + y;
      case '-': return x - y;
      case '*': return x * y;
      case '/': return x / y;
      case '%': return x % y;
    }
  }
  const p = x as number;
  const q = y as number;
  // Infinity or NaN would reach the target as text; say what went wrong instead
  if ((op === '/' || op === '%') && q === 0) throw new SpecgateError('SG_EXPRESSION', `division by zero in ${JSON.stringify(whole)}`);
  switch (op) {
    case '+': return p + q;
    case '-': return p - q;
    case '*': return p * q;
    case '/': return p / q;
    case '%': return p % q;
  }
}

/** A target's variables as cases see them: variables may name each other (`token_url: "${auth_url}/token"`), so they are resolved in a few passes; one that does not resolve stays as written. */
export function resolveVariables(raw: Record<string, unknown>): Record<string, unknown> {
  let vars = { ...raw };
  for (let pass = 0; pass < 4; pass++) {
    const next: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(vars)) {
      try {
        next[k] = resolveDeep(v, { vars });
      } catch {
        next[k] = v;
      }
    }
    vars = next;
  }
  return vars;
}

/** One part of a string as a pattern reads it: literal text, or an expression. */
export type PatternPart =
  | { text: string }
  | {
      /** The variable it is, when the expression is a bare name (`${etag}`); otherwise undefined. */
      variable: string | undefined;
      /** The variables it reads. */
      reads: readonly string[];
      /** Its value in a scope whose variables it reads are all set. */
      value(scope: Scope): unknown;
    };

/**
 * A string's parts, literal text and expressions, for reading a value back into the variables
 * that would have produced it (recorded traffic matched against a request step). Throws
 * SG_EXPRESSION as {@link compile} does.
 */
export function patternParts(s: string): PatternPart[] {
  if (!s.includes('${')) return [{ text: s }];
  return compile(s).parts.map((p): PatternPart => {
    if (typeof p === 'string') return { text: p };
    const variable = p.k === 'var' && p.path.length === 1 && typeof p.path[0] === 'string' ? p.path[0] : undefined;
    return { variable, reads: readsOf(p), value: (scope) => evaluate(p, scope, s) };
  });
}

/** The variables an expression node reads (first path segment). */
function readsOf(n: Node, out: string[] = []): string[] {
  if (n.k === 'var' && typeof n.path[0] === 'string') out.push(n.path[0]);
  else if (n.k === 'neg') readsOf(n.a, out);
  else if (n.k === 'bin') {
    readsOf(n.a, out);
    readsOf(n.b, out);
  }
  return out;
}
