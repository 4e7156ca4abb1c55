import { referencedVariables } from '../engine/expressions.js';
import type { ApiTable } from '../engine/api/table.js';
import type { CaseDef, LoadedSuite } from '../engine/model.js';

/**
 * The value `specgate init` writes for a variable a person must fill in. A profile that still
 * holds it is not ready: the run and `specgate validate` stop with the variable's name.
 */
export const PLACEHOLDER = '<fill in>';

/**
 * One variable a suite takes from a target: its declaration, and who needs it, derived from the
 * cases themselves (never written by hand, so it cannot drift from them).
 */
export interface DeclaredVar {
  name: string;
  description: string;
  secret: boolean;
  /** A target must set it; a run whose selected cases need it stops before anything starts. */
  required: boolean;
  /** A value of the right shape, for people writing a profile. */
  example?: unknown;
  /** The suite's API table reads it (base URL, credentials, path parameters, required headers). */
  apiTable: boolean;
  /**
   * Cases that read it in their steps or vars, or list it under `needs:`. Typed checks that
   * read it in their code are out of sight here.
   */
  cases: string[];
  /** Cases that send requests through the API table to an operation that reads it. */
  viaTable: string[];
  /** Cases that list it under `needs:`: skipped, not failed, when the target leaves it unset. */
  skips: string[];
}

/** Every variable an expression inside a value reads (syntax errors are the loader's to report). */
export function variablesRead(v: unknown): string[] {
  if (typeof v === 'string') {
    try {
      return referencedVariables(v);
    } catch {
      return [];
    }
  }
  if (Array.isArray(v)) return v.flatMap(variablesRead);
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.values(v).flatMap(variablesRead);
  return [];
}

/** The variables the API table reads anywhere (base URLs, credentials, path parameters, required headers). */
function tableReads(api: ApiTable): Set<string> {
  return new Set(variablesRead([api.base, api.auth?.value ?? '', api.params, api.operations.map((o) => [o.base ?? '', o.requiredHeaders])]));
}

/** Per operation, the variables a request to it reads: its base URL, credentials, path parameters and required headers. */
function operationReads(api: ApiTable): Map<string, Set<string>> {
  return new Map(
    api.operations.map((o) => {
      const params = o.parameters.filter((p) => p.in === 'path').map((p) => api.params[p.name] ?? '');
      return [o.id, new Set(variablesRead([o.base ?? api.base, o.auth ? (api.auth?.value ?? '') : '', params, o.requiredHeaders]))];
    }),
  );
}

/**
 * The operations a case sends requests to through the API table: by operation ID, or through
 * an `api.*` check naming one. An operation named by an expression, or an `api.*` check that
 * picks its own (sequences, paging), may be any of them.
 */
function operationsOf(c: CaseDef, all: readonly string[]): string[] {
  const used = new Set<string>();
  const named = (op: unknown): void => {
    if (typeof op === 'string' && !op.includes('${')) used.add(op);
    else for (const o of all) used.add(o);
  };
  for (const step of c.steps) {
    if ('request' in step && step.request.operation !== undefined) named(step.request.operation);
    if ('check' in step && step.check.startsWith('api.')) named(step.with?.['operation']);
  }
  return [...used];
}

/** The suite's declared variables with the cases that need each, in declaration order. */
export function declaredVars(suite: LoadedSuite): DeclaredVar[] {
  const api = suite.api;
  const table = api ? tableReads(api) : new Set<string>();
  const reads = new Map<string, Set<string>>(suite.cases.map((c) => [c.id, new Set(variablesRead([c.steps, c.vars ?? {}]))]));
  // case -> the variables its requests through the API table read
  const throughTable = new Map<string, Set<string>>();
  if (api) {
    const byOperation = operationReads(api);
    const all = [...byOperation.keys()];
    for (const c of suite.cases) throughTable.set(c.id, new Set(operationsOf(c, all).flatMap((op) => [...(byOperation.get(op) ?? [])])));
  }
  return Object.entries(suite.vars ?? {}).map(([name, d]) => {
    const direct = (c: CaseDef): boolean => (c.needs ?? []).includes(name) || (reads.get(c.id)?.has(name) ?? false);
    return {
      name,
      description: d.description,
      secret: d.secret === true,
      required: d.required === true,
      ...(d.example !== undefined ? { example: d.example } : {}),
      apiTable: table.has(name),
      cases: suite.cases.filter(direct).map((c) => c.id),
      viaTable: suite.cases.filter((c) => throughTable.get(c.id)?.has(name)).map((c) => c.id),
      skips: suite.cases.filter((c) => (c.needs ?? []).includes(name)).map((c) => c.id),
    };
  });
}

/** Every case that needs the variable: those that read it or list it under `needs:`, then those that reach it through the API table. */
export function neededBy(v: Pick<DeclaredVar, 'cases' | 'viaTable'>): string[] {
  const all = new Set([...v.cases, ...v.viaTable]);
  return [...all];
}

/** A value counts as set when it is neither absent, null nor the empty string. */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** The environment variable a profile reads a secret from: `OAUTH_CLIENT_SECRET` for oauth's client_secret. */
export function secretEnvName(suite: string, variable: string): string {
  return `${suite}_${variable}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

/** `a, b, c and 4 more` for messages that must stay one readable line (`separator` between items that hold commas). */
export function someOf(ids: readonly string[], max = 5, separator = ', '): string {
  return ids.length > max ? `${ids.slice(0, max).join(separator)} and ${ids.length - max} more` : ids.join(separator);
}
