import { cutText } from '../../targets/text-cut.js';

/**
 * A value a failure keeps for its report (`expected`, `actual`, a property's counterexample),
 * cut down to a bounded size. A target decides how large what it answers is: a failure that
 * kept a whole 8 MB body of a million tiny objects held it through the run and wrote it into
 * every report, 25 times its size as indented JSON. What is left out is said where it was.
 */

/** Items kept of one list, and keys of one object. */
export const KEPT_ITEMS = 100;
/** Values kept in all of one bounded value (every string, number, list and object counts one). */
export const KEPT_NODES = 2000;
/** Characters kept of one string (then the cut mark and how many more there were). */
export const KEPT_CHARS = 4096;
/** Bytes kept of one byte array. */
export const KEPT_BYTES = 4096;
/**
 * Nesting kept. Reports show 64 levels and mark the rest themselves; this deeper bound only
 * keeps the walk here off the stack for a value no body could carry (a check's own object).
 */
export const KEPT_DEPTH = 200;

/** The key an object cut short gets, saying how many keys were left out. */
export const MORE_KEYS = '…';

/**
 * `value` as a report keeps it: at most {@link KEPT_ITEMS} items of a list and keys of an
 * object, {@link KEPT_NODES} values in all, strings of {@link KEPT_CHARS} characters, byte
 * arrays of {@link KEPT_BYTES} bytes. What is cut says so: a list ends with `"… 2796199 more
 * items not shown"`, an object gets the key `"…"` with how many keys were left out, a string
 * ends with the cut mark and how many characters followed. A value within every bound is
 * returned as it is (no copy); a cut one is a new value, and the original is left untouched.
 */
export function boundedValue(value: unknown): unknown {
  return fits(value) ? value : new Bounder().cut(value, 0);
}

/** Whether `value` is within every bound, found by a walk that stops at the first excess. */
function fits(value: unknown): boolean {
  let nodes = 0;
  const walk = (v: unknown, depth: number): boolean => {
    if (++nodes > KEPT_NODES) return false;
    if (typeof v === 'string') return v.length <= KEPT_CHARS;
    if (typeof v !== 'object' || v === null) return true;
    if (ArrayBuffer.isView(v)) return v.byteLength <= KEPT_BYTES;
    if (v instanceof Date || v instanceof Error) return true;
    if (depth >= KEPT_DEPTH) return false;
    if (Array.isArray(v)) return v.length <= KEPT_ITEMS && v.every((x) => walk(x, depth + 1));
    if (v instanceof Map || v instanceof Set) return false;
    const keys = Object.keys(v);
    return keys.length <= KEPT_ITEMS && keys.every((k) => walk((v as Record<string, unknown>)[k], depth + 1));
  };
  return walk(value, 0);
}

/** One cut, with the budget of values it still has. */
class Bounder {
  private left = KEPT_NODES;
  /** The objects from the root down to the one being cut: a cycle is marked, not followed. */
  private readonly path = new Set<object>();

  cut(v: unknown, depth: number): unknown {
    this.left--;
    if (typeof v === 'string') return cutText(v, KEPT_CHARS);
    if (typeof v !== 'object' || v === null) return v;
    if (ArrayBuffer.isView(v)) return cutBytes(v);
    if (v instanceof Date || v instanceof Error) return v;
    if (this.path.has(v)) return '[Circular]';
    if (depth >= KEPT_DEPTH) return `… nested beyond ${KEPT_DEPTH} levels`;
    this.path.add(v);
    try {
      if (Array.isArray(v)) return this.list(v, depth);
      if (v instanceof Map) return this.list([...v.entries()], depth);
      if (v instanceof Set) return this.list([...v], depth);
      return this.object(v as Record<string, unknown>, depth);
    } finally {
      this.path.delete(v);
    }
  }

  private list(items: readonly unknown[], depth: number): unknown[] {
    const out: unknown[] = [];
    for (const item of items) {
      if (out.length >= KEPT_ITEMS || this.left <= 0) break;
      out.push(this.cut(item, depth + 1));
    }
    const more = items.length - out.length;
    if (more > 0) out.push(`… ${more} more item${more === 1 ? '' : 's'} not shown`);
    return out;
  }

  private object(obj: Record<string, unknown>, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let kept = 0;
    let total = 0;
    for (const key in obj) {
      if (!Object.hasOwn(obj, key)) continue;
      total++;
      if (kept >= KEPT_ITEMS || this.left <= 0) continue;
      kept++;
      // defineProperty: a body may have a "__proto__" key, which plain assignment would eat
      Object.defineProperty(out, key, { value: this.cut(obj[key], depth + 1), enumerable: true, writable: true, configurable: true });
    }
    if (total > kept) out[MORE_KEYS] = `${total - kept} more key${total - kept === 1 ? '' : 's'} not shown`;
    return out;
  }
}

/** The first {@link KEPT_BYTES} bytes (a copy, so the whole array can be let go) and how many there were. */
function cutBytes(v: ArrayBufferView): unknown {
  if (v.byteLength <= KEPT_BYTES) return v;
  const head = new Uint8Array(KEPT_BYTES);
  head.set(new Uint8Array(v.buffer, v.byteOffset, KEPT_BYTES));
  return { first: head, cut: `… the first ${KEPT_BYTES} of ${v.byteLength} bytes` };
}
