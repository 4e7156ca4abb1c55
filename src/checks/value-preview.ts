/**
 * A short JSON-like rendering of any value for failure messages, whose cost is bounded by the
 * length asked for rather than by the value: a 50 MB body or an array nested ten thousand
 * levels deep is walked only as far as the text it produces (JSON.stringify would first write
 * all of it, or overflow the stack).
 */

/** Levels rendered before a deeper value is shown as `…`. */
const PREVIEW_DEPTH = 32;

class Budget {
  out = '';
  constructor(readonly max: number) {}
  get spent(): boolean {
    return this.out.length > this.max;
  }
  add(s: string): void {
    this.out += s;
  }
}

/**
 * JSON text of `v` as JSON.stringify writes it (bigint as its digits, byte arrays as
 * `"<n bytes>"`, `toJSON` honoured), cut after `max` characters with `…`. Values nested deeper
 * than 32 levels are shown as `…`. Undefined (and functions, symbols) give undefined.
 */
export function previewJson(v: unknown, max: number): string | undefined {
  const b = new Budget(max);
  if (!write(v, b, 0, false)) return undefined;
  return b.spent ? `${b.out.slice(0, max)}…` : b.out;
}

/** JSON text of a string or key, only as much of it as the budget has room for. */
function quoted(s: string, b: Budget): string {
  const room = b.max - b.out.length + 1;
  return JSON.stringify(s.length > room ? s.slice(0, room) : s);
}

/** Writes `v`; false when it has no JSON form (undefined, function, symbol). */
function write(given: unknown, b: Budget, depth: number, inArray: boolean): boolean {
  if (b.spent) return true;
  // toJSON is applied once, as JSON.stringify does (Date gives its ISO text)
  const toJSON = given !== null && typeof given === 'object' && !(given instanceof Uint8Array) ? (given as { toJSON?: unknown }).toJSON : undefined;
  const v: unknown = typeof toJSON === 'function' ? toJSON.call(given) : given;
  switch (typeof v) {
    case 'string':
      b.add(quoted(v, b));
      return true;
    case 'number':
      b.add(Number.isFinite(v) ? String(v) : 'null');
      return true;
    case 'bigint':
      b.add(v.toString());
      return true;
    case 'boolean':
      b.add(String(v));
      return true;
    case 'undefined':
    case 'function':
    case 'symbol':
      if (inArray) b.add('null');
      return inArray;
    default:
      break;
  }
  if (v === null) b.add('null');
  else if (v instanceof Uint8Array) b.add(`"<${v.length} bytes>"`);
  else if (depth >= PREVIEW_DEPTH) b.add('…');
  else if (Array.isArray(v)) {
    b.add('[');
    for (let i = 0; i < v.length && !b.spent; i++) {
      if (i > 0) b.add(',');
      write(v[i], b, depth + 1, true);
    }
    b.add(']');
  } else {
    b.add('{');
    let first = true;
    for (const k in v) {
      if (b.spent) break;
      if (!Object.hasOwn(v, k)) continue;
      const mark = b.out.length;
      b.add(`${first ? '' : ','}${quoted(k, b)}:`);
      // a key whose value has no JSON form is left out, as JSON.stringify leaves it out
      if (write((v as Record<string, unknown>)[k], b, depth + 1, false)) first = false;
      else b.out = b.out.slice(0, mark);
    }
    b.add('}');
  }
  return true;
}
