import type { ApiOperation, ApiTable } from './table.js';

/** A recorded request matched to its operation, or why it matches none. */
export type OperationMatch =
  | { ok: true; operation: ApiOperation; params: Record<string, string> }
  | {
      ok: false;
      /** `unknown-path`: no template fits the path; `wrong-method`: one does, but not with this method. */
      reason: 'unknown-path' | 'wrong-method';
      message: string;
      /** The methods the table lists for the path (empty for an unknown path). */
      allowed: string[];
    };

/**
 * Finds the operation a request was meant for: its method and the path template its path fits
 * (parameters decoded). `url` is absolute or a path; `base`, when given, is the resolved base
 * URL whose path prefix is removed first. A literal segment beats a parameter
 * (`/notes/batch` fits `/notes/batch` before `/notes/{note_id}`).
 */
export function matchOperation(table: ApiTable, method: string, url: string, base?: string): OperationMatch {
  const path = relativePath(url, base);
  if (path === undefined) return { ok: false, reason: 'unknown-path', message: `${url} is not below the API's base ${base ?? ''}`, allowed: [] };
  const fits = pathMatches(table, path);
  if (fits.length === 0) return { ok: false, reason: 'unknown-path', message: `no operation has a path that fits ${path}`, allowed: [] };
  const m = method.toUpperCase();
  const hit = fits.find((f) => f.operation.method === m);
  if (hit) return { ok: true, operation: hit.operation, params: hit.params };
  const allowed = [...new Set(fits.map((f) => f.operation.method))];
  return { ok: false, reason: 'wrong-method', message: `${m} is not an operation on ${path} (the table lists ${allowed.join(', ')})`, allowed };
}

/** Every operation whose path template fits `path`, most literal segments first. */
export function pathMatches(table: ApiTable, path: string): { operation: ApiOperation; params: Record<string, string> }[] {
  const segs = splitPath(path);
  const out: { operation: ApiOperation; params: Record<string, string>; literal: number }[] = [];
  for (const op of table.operations) {
    const { segments: tpl, names } = templateOf(op.path);
    if (tpl.length !== segs.length) continue;
    const params: Record<string, string> = {};
    let literal = 0;
    let fits = true;
    for (let i = 0; i < tpl.length && fits; i++) {
      const t = tpl[i] as string;
      const s = segs[i] as string;
      const name = names[i];
      if (name !== undefined) {
        const value = decode(s);
        if (value === undefined || value === '') fits = false;
        else params[name] = value;
      } else if (t.includes('{')) {
        // a parameter with literal text in one segment ({id}:undelete) is more specific than a bare one
        const found = mixedSegment(t, s);
        if (found) {
          Object.assign(params, found);
          literal++;
        } else fits = false;
      } else if (t === s) literal++;
      else fits = false;
    }
    if (fits) out.push({ operation: op, params, literal });
  }
  // a method is routed by the most literal template that lists it
  return out.sort((a, b) => b.literal - a.literal).map(({ operation, params }) => ({ operation, params }));
}

/** The methods the table lists for a concrete path (whatever template fits it). */
export function methodsOnPath(table: ApiTable, path: string): string[] {
  return [...new Set(pathMatches(table, path).map((f) => f.operation.method))];
}

function relativePath(url: string, base: string | undefined): string | undefined {
  let path: string;
  try {
    path = new URL(url, 'http://relative.invalid').pathname;
  } catch {
    return undefined;
  }
  if (!base) return path;
  let prefix: string;
  try {
    prefix = new URL(base).pathname.replace(/\/+$/, '');
  } catch {
    return path;
  }
  if (!prefix) return path;
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return undefined;
  return path.slice(prefix.length) || '/';
}

/** The parameters of a template segment that mixes them with literal text (`{id}:undelete`), or undefined when `seg` does not fit it. */
function mixedSegment(template: string, seg: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/\{([^}]+)\}|[^{]+/g, (m, name: string | undefined) => {
    if (name === undefined) return m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(name);
    return '([^/]+?)';
  });
  const m = new RegExp(`^${pattern}$`).exec(seg);
  if (!m) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const value = decode(m[i + 1] ?? '');
    if (value === undefined || value === '') return undefined;
    out[names[i] as string] = value;
  }
  return out;
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s, i) => i > 0 || s !== '');
}

/** A path template's segments, and the parameter each names when it is one whole (`{id}`). */
interface Template {
  segments: readonly string[];
  names: readonly (string | undefined)[];
}

/** Each path template, split once: every exchange a reference or a judge places is matched against the whole table. */
const templates = new Map<string, Template>();

function templateOf(path: string): Template {
  let t = templates.get(path);
  if (!t) {
    const segments = splitPath(path);
    templates.set(path, (t = { segments, names: segments.map((s) => /^\{([^}]+)\}$/.exec(s)?.[1]) }));
  }
  return t;
}

function decode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
