/**
 * JSON for report payloads. JSON.stringify throws on bigint and cannot write one as a number
 * (JSON.rawJSON is not in Node 20), yet int64 ids above 2^53 must reach the report exactly
 * (DESIGN "Targets": lossless JSON for int64 fields). So values are first normalized to a
 * plain tree that keeps bigint, then written by hand: as bare digits in text a person reads, as
 * a string in files other programs parse ({@link portableInteger}).
 */

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/** A JSON-shaped value that may hold bigint. */
export type Plain = null | boolean | number | bigint | string | Plain[] | { [key: string]: Plain };

/** How {@link normalize} and {@link stringifyJson} write values for one kind of output. */
export interface PlainOptions {
  /**
   * Write every integer as {@link portableInteger} does, for files other programs read (the
   * JSON and TAP reports); human-facing text keeps the bare digits.
   */
  portableIntegers?: boolean;
}

/**
 * An integer as every JSON or YAML reader takes it without loss: a number while a double holds
 * it exactly (within ±(2^53−1)), otherwise a string of its exact digits. JavaScript's JSON.parse,
 * jq and js-yaml round the digits past 2^53, and Python refuses integers of more than 4,300
 * digits; a string reaches all of them as it was sent.
 */
export function portableInteger(n: bigint): number | string {
  return n >= -MAX_EXACT && n <= MAX_EXACT ? Number(n) : n.toString(10);
}

/** What one walk of {@link normalize} carries down the tree. */
interface Walk {
  str: (s: string) => string;
  big: (n: bigint) => Plain;
  seen: Set<object>;
  /** Levels above the walk's root (a value written as one part of a larger document). */
  depth: number;
}

/**
 * Turns whatever a target adapter captured into a {@link Plain} tree instead of throwing in
 * the middle of a report: byte arrays become `{"$bytes": "<base64>"}`, Map an array of
 * `[key, value]` pairs, Set an array, Error `{name, message, code?}`, a cycle the string
 * `"[Circular]"`, non-finite numbers `null`; `toJSON` is honoured (Date); `undefined`,
 * functions and symbols are dropped from objects and `null` in arrays, as JSON does; what
 * nests deeper than {@link REPORT_DEPTH} levels becomes the text `… nested beyond 64 levels`.
 * bigint stays bigint unless `options.portableIntegers` asks for {@link portableInteger}.
 * @param mapString applied to every string (keys included), e.g. to strip illegal characters.
 */
export function normalize(value: unknown, mapString: (s: string) => string = (s) => s, options: PlainOptions = {}, depth = 0): Plain {
  const big = options.portableIntegers ? portableInteger : (n: bigint): Plain => n;
  return norm(value, { str: mapString, big, seen: new Set(), depth }) ?? null;
}

/**
 * Levels of nesting a report shows. Deeper values become a note: every writer recurses per
 * level, and a target's body nested thousands of levels deep must not overflow the stack.
 */
export const REPORT_DEPTH = 64;

const TOO_DEEP = `… nested beyond ${REPORT_DEPTH} levels`;

function norm(value: unknown, w: Walk): Plain | undefined {
  switch (typeof value) {
    case 'string':
      return w.str(value);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return w.big(value);
    case 'boolean':
      return value;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      break;
  }
  if (value === null) return null;
  const obj = value as object;
  if (w.seen.has(obj)) return '[Circular]';
  // `seen` holds exactly the objects from the root down to this one: its size is the depth
  if (w.seen.size + w.depth >= REPORT_DEPTH) return TOO_DEEP;
  w.seen.add(obj);
  try {
    return normObject(obj, w);
  } finally {
    w.seen.delete(obj);
  }
}

function normObject(obj: object, w: Walk): Plain | undefined {
  const list = (items: unknown[]): Plain[] => items.map((x) => norm(x, w) ?? null);
  if (ArrayBuffer.isView(obj)) return { $bytes: Buffer.from(obj.buffer, obj.byteOffset, obj.byteLength).toString('base64') };
  if (obj instanceof Error) {
    const code = (obj as Error & { code?: unknown }).code;
    return entries([['name', obj.name], ['message', obj.message], ['code', code]], w);
  }
  if (Array.isArray(obj)) return list(obj);
  if (obj instanceof Set) return list([...obj]);
  if (obj instanceof Map) return list([...obj.entries()]);
  const toJSON = (obj as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return norm(toJSON.call(obj) as unknown, w);
  return entries(Object.entries(obj), w);
}

function entries(list: [string, unknown][], w: Walk): { [key: string]: Plain } {
  const out: { [key: string]: Plain } = {};
  for (const [k, v] of list) {
    const p = norm(v, w);
    if (p === undefined) continue;
    const key = w.str(k);
    // a captured body may have a "__proto__" key, which plain assignment would eat; every other
    // key is assigned (defineProperty for each key of each case cost a large report seconds)
    if (key === '__proto__') Object.defineProperty(out, key, { value: p, enumerable: true, writable: true, configurable: true });
    else out[key] = p;
  }
  return out;
}

/**
 * Serializes `value` as JSON after {@link normalize}: bigint becomes a JSON number with all
 * its digits (what a person reads), or with `portableIntegers` a string where a double cannot
 * hold it (what another program reads, {@link portableInteger}); strings are escaped by
 * JSON.stringify, which also escapes lone surrogates.
 * @param indent spaces per level; 0 for compact output.
 */
export function stringifyJson(value: unknown, indent = 0, options: PlainOptions = {}): string {
  return write(normalize(value, undefined, options), indent > 0 ? ' '.repeat(indent) : '', '');
}

/** Lists and objects with more entries than this are written entry by entry by {@link jsonParts}. */
const PART_ENTRIES = 64;

/**
 * {@link stringifyJson} of `value` (indented by `indent` spaces) in parts whose concatenation is
 * that text, for reports too large to hold as one string twice over: a list or object of more
 * than a few dozen entries is normalized and written one entry at a time, so a run of 100,000
 * cases is never copied whole, and only one case's text exists at a time.
 */
export function* jsonParts(value: unknown, indent: number, options: PlainOptions = {}): Generator<string> {
  yield* parts(value, indent > 0 ? ' '.repeat(indent) : '', '', 0, options);
}

function* parts(value: unknown, unit: string, pad: string, depth: number, options: PlainOptions): Generator<string> {
  const entries = largeEntries(value);
  if (!entries || depth >= REPORT_DEPTH) {
    yield write(normalize(value, undefined, options, depth), unit, pad);
    return;
  }
  const list = Array.isArray(value);
  const inner = pad + unit;
  const nl = unit ? '\n' : '';
  let first = true;
  yield list ? '[' : '{';
  for (const [key, item] of entries) {
    // as JSON does: undefined, functions and symbols leave an object, and are null in a list
    const absent = item === undefined || typeof item === 'function' || typeof item === 'symbol';
    if (absent && !list) continue;
    yield `${first ? '' : ','}${nl}${inner}${list ? '' : `${JSON.stringify(key)}${unit ? ': ' : ':'}`}`;
    first = false;
    if (absent) yield 'null';
    else yield* parts(item, unit, inner, depth + 1, options);
  }
  yield first ? (list ? ']' : '}') : `${nl}${pad}${list ? ']' : '}'}`;
}

/** How far below a container {@link largeEntries} looks for a large list (the report's own nesting: run, suites, suite, cases). */
const LOOK_DOWN = 3;

/**
 * The entries of a plain list or object worth writing one by one: one of more than
 * {@link PART_ENTRIES} entries, or one holding such a list a few levels down (the report's own
 * containers). Anything else is written whole, as are values with their own toJSON.
 */
function largeEntries(value: unknown, levels = LOOK_DOWN): [string, unknown][] | undefined {
  if (!isPlainContainer(value)) return undefined;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  if (entries.length > PART_ENTRIES) return entries;
  return levels > 0 && entries.some(([, v]) => largeEntries(v, levels - 1) !== undefined) ? entries : undefined;
}

function isPlainContainer(v: unknown): v is object {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  return Object.getPrototypeOf(v) === Object.prototype && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** Compact JSON when short, indented otherwise: readable in failure messages either way. */
export function showValue(value: unknown, compactMax = 100): string {
  const compact = stringifyJson(value);
  return compact.length <= compactMax ? compact : stringifyJson(value, 2);
}

function write(v: Plain, unit: string, pad: string): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return v.toString(10);
  if (typeof v !== 'object') return JSON.stringify(v);
  const inner = pad + unit;
  const nl = unit ? '\n' : '';
  const parts = Array.isArray(v)
    ? v.map((x) => inner + write(x, unit, inner))
    : Object.entries(v).map(([k, x]) => `${inner}${JSON.stringify(k)}${unit ? ': ' : ':'}${write(x, unit, inner)}`);
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  if (parts.length === 0) return open + close;
  return `${open}${nl}${parts.join(`,${nl}`)}${nl}${pad}${close}`;
}
