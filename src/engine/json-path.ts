import { SpecgateError } from '../errors.js';

/**
 * A JSONPath subset for captures and checks: `$`, `.name`, `['any key']`, `[0]`, `[-1]`.
 * Enough to point at one value; filters and wildcards are deliberately not supported
 * (a capture must name exactly one value).
 */
export type PathSegment = string | number;

const cache = new Map<string, PathSegment[]>();

export function parseJsonPath(path: string): PathSegment[] {
  const hit = cache.get(path);
  if (hit) return hit;
  if (!path.startsWith('$')) throw bad(path, 'it must start with "$"');
  const segs: PathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      const m = /^[A-Za-z_$][\w$-]*/.exec(path.slice(i + 1));
      if (!m) throw bad(path, `expected a name after "." at position ${i + 1}`);
      segs.push(m[0]);
      i += 1 + m[0].length;
    } else if (c === '[') {
      const rest = path.slice(i);
      const idx = /^\[(-?\d+)\]/.exec(rest);
      const key = /^\[(['"])(.*?)\1\]/.exec(rest);
      if (idx?.[1] !== undefined) {
        segs.push(Number(idx[1]));
        i += idx[0].length;
      } else if (key?.[2] !== undefined) {
        segs.push(key[2]);
        i += key[0].length;
      } else throw bad(path, `expected [number] or ['key'] at position ${i}`);
    } else throw bad(path, `unexpected "${c}" at position ${i}`);
  }
  cache.set(path, segs);
  return segs;
}

function bad(path: string, why: string): SpecgateError {
  return new SpecgateError('SG_EXPRESSION', `bad path ${JSON.stringify(path)}: ${why} (forms: $.a.b, $.items[0], $['odd-key'])`);
}

/** The value at `path`, or undefined when any step is missing. */
export function getPath(value: unknown, path: string | PathSegment[]): unknown {
  const segs = typeof path === 'string' ? parseJsonPath(path) : path;
  let cur = value;
  for (const s of segs) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (typeof s === 'number' && Array.isArray(cur)) cur = cur[s < 0 ? cur.length + s : s];
    else cur = (cur as Record<string, unknown>)[String(s)];
  }
  return cur;
}
