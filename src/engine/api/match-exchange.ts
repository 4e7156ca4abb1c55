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
  for (const tpl of templatesOf(table).get(segs.length) ?? []) {
    const params: Record<string, string> = {};
    let literal = 0;
    let fits = true;
    for (let i = 0; i < tpl.segments.length && fits; i++) {
      const t = tpl.segments[i] as TemplateSegment;
      const s = segs[i] as string;
      if (t.kind === 'param') {
        const value = decode(s);
        if (value === undefined || value === '') fits = false;
        else params[t.name] = value;
      } else if (t.kind === 'mixed') {
        // a parameter with literal text in one segment ({id}:undelete) is more specific than a bare one
        const found = mixedSegment(t, s);
        if (found) {
          Object.assign(params, found);
          literal++;
        } else fits = false;
      } else if (t.text === s) literal++;
      else fits = false;
    }
    if (fits) out.push({ operation: tpl.operation, params, literal });
  }
  // a method is routed by the most literal template that lists it
  return out.sort((a, b) => b.literal - a.literal).map(({ operation, params }) => ({ operation, params }));
}

/** One segment of a path template: literal text, a whole-segment parameter, or both mixed (`{id}:undelete`). */
type TemplateSegment =
  | { kind: 'literal'; text: string }
  | { kind: 'param'; name: string }
  | { kind: 'mixed'; pattern: RegExp; names: string[] };

/** An operation's path template, split and its segments classified once. */
interface Template {
  operation: ApiOperation;
  segments: TemplateSegment[];
}

/**
 * The table's templates by segment count, each list in the table's order (which the sort above
 * keeps among equally literal templates). Made once per table and operation list: a reference
 * service routes every request through {@link matchOperation}, and splitting every template for
 * every request cost more than the rest of its routing.
 */
const compiled = new WeakMap<ApiTable, { operations: readonly ApiOperation[]; count: number; bySize: Map<number, Template[]> }>();

function templatesOf(table: ApiTable): Map<number, Template[]> {
  const hit = compiled.get(table);
  if (hit && hit.operations === table.operations && hit.count === table.operations.length) return hit.bySize;
  const bySize = new Map<number, Template[]>();
  for (const operation of table.operations) {
    const segments = splitPath(operation.path).map(templateSegment);
    const list = bySize.get(segments.length);
    if (list) list.push({ operation, segments });
    else bySize.set(segments.length, [{ operation, segments }]);
  }
  compiled.set(table, { operations: table.operations, count: table.operations.length, bySize });
  return bySize;
}

function templateSegment(t: string): TemplateSegment {
  const name = /^\{([^}]+)\}$/.exec(t)?.[1];
  if (name !== undefined) return { kind: 'param', name };
  if (!t.includes('{')) return { kind: 'literal', text: t };
  const names: string[] = [];
  const pattern = t.replace(/\{([^}]+)\}|[^{]+/g, (m, n: string | undefined) => {
    if (n === undefined) return m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(n);
    return '([^/]+?)';
  });
  return { kind: 'mixed', pattern: new RegExp(`^${pattern}$`), names };
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
function mixedSegment(template: { pattern: RegExp; names: string[] }, seg: string): Record<string, string> | undefined {
  const m = template.pattern.exec(seg);
  if (!m) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i < template.names.length; i++) {
    const value = decode(m[i + 1] ?? '');
    if (value === undefined || value === '') return undefined;
    out[template.names[i] as string] = value;
  }
  return out;
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s, i) => i > 0 || s !== '');
}

function decode(s: string): string | undefined {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
