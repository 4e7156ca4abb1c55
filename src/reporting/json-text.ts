/**
 * JSON for report payloads. JSON.stringify throws on bigint and cannot write one as a number
 * (JSON.rawJSON is not in Node 20), yet int64 ids above 2^53 must reach the report exactly
 * (DESIGN "Targets": lossless JSON for int64 fields). So values are first normalized to a
 * plain tree that keeps bigint, then written by hand.
 */

/** A JSON-shaped value that may hold bigint. */
export type Plain = null | boolean | number | bigint | string | Plain[] | { [key: string]: Plain };

/**
 * Turns whatever a target adapter captured into a {@link Plain} tree instead of throwing in
 * the middle of a report: byte arrays become `{"$bytes": "<base64>"}`, Map an array of
 * `[key, value]` pairs, Set an array, Error `{name, message, code?}`, a cycle the string
 * `"[Circular]"`, non-finite numbers `null`; `toJSON` is honoured (Date); `undefined`,
 * functions and symbols are dropped from objects and `null` in arrays, as JSON does; what
 * nests deeper than {@link REPORT_DEPTH} levels becomes the text `… nested beyond 64 levels`.
 * @param mapString applied to every string (keys included), e.g. to strip illegal characters.
 */
export function normalize(value: unknown, mapString: (s: string) => string = (s) => s): Plain {
  return norm(value, mapString, new Set()) ?? null;
}

/**
 * Levels of nesting a report shows. Deeper values become a note: every writer recurses per
 * level, and a target's body nested thousands of levels deep must not overflow the stack.
 */
export const REPORT_DEPTH = 64;

const TOO_DEEP = `… nested beyond ${REPORT_DEPTH} levels`;

function norm(value: unknown, str: (s: string) => string, seen: Set<object>): Plain | undefined {
  switch (typeof value) {
    case 'string':
      return str(value);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
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
  if (seen.has(obj)) return '[Circular]';
  // `seen` holds exactly the objects from the root down to this one: its size is the depth
  if (seen.size >= REPORT_DEPTH) return TOO_DEEP;
  seen.add(obj);
  try {
    return normObject(obj, str, seen);
  } finally {
    seen.delete(obj);
  }
}

function normObject(obj: object, str: (s: string) => string, seen: Set<object>): Plain | undefined {
  const list = (items: unknown[]): Plain[] => items.map((x) => norm(x, str, seen) ?? null);
  if (ArrayBuffer.isView(obj)) return { $bytes: Buffer.from(obj.buffer, obj.byteOffset, obj.byteLength).toString('base64') };
  if (obj instanceof Error) {
    const code = (obj as Error & { code?: unknown }).code;
    return entries([['name', obj.name], ['message', obj.message], ['code', code]], str, seen);
  }
  if (Array.isArray(obj)) return list(obj);
  if (obj instanceof Set) return list([...obj]);
  if (obj instanceof Map) return list([...obj.entries()]);
  const toJSON = (obj as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return norm(toJSON.call(obj) as unknown, str, seen);
  return entries(Object.entries(obj), str, seen);
}

function entries(list: [string, unknown][], str: (s: string) => string, seen: Set<object>): { [key: string]: Plain } {
  const out: { [key: string]: Plain } = {};
  for (const [k, v] of list) {
    const p = norm(v, str, seen);
    // defineProperty: a captured body may have a "__proto__" key, which plain assignment would eat.
    if (p !== undefined) Object.defineProperty(out, str(k), { value: p, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Serializes `value` as JSON after {@link normalize}: bigint becomes a JSON number with all
 * its digits; strings are escaped by JSON.stringify, which also escapes lone surrogates.
 * @param indent spaces per level; 0 for compact output.
 */
export function stringifyJson(value: unknown, indent = 0): string {
  return write(normalize(value), indent > 0 ? ' '.repeat(indent) : '', '');
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
