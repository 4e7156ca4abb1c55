import { SpecgateError } from '../../errors.js';
import { stringify } from '../expressions.js';
import type { CaseDef, HttpRequestSpec, Step } from '../model.js';
import type { CaseDefaults, Fragment } from './suite-file.js';
import type { OperationFilter } from '../api/operation-rows.js';

/** A case as written in a file, before its rows and fragments are expanded. */
export type RawCase = Omit<CaseDef, 'location' | 'steps'> & { steps?: Record<string, unknown>[]; each?: Record<string, unknown>[] | { operations: OperationFilter } };

/** Where an expanded step came from in its file: the path below the file's root. */
export type SourcePath = (string | number)[];

/** One case after expansion, with the file path of each of its steps for error positions. */
export interface ExpandedCase {
  raw: Omit<CaseDef, 'location'>;
  /** Index of the template in its file. */
  index: number;
  /** Row index when the case came from `each:`. */
  row?: number;
  stepPaths: SourcePath[];
}

const ROW_REF = /\$\{row\.([A-Za-z0-9_]+)\}/g;
const WHOLE_ROW_REF = /^\$\{row\.([A-Za-z0-9_]+)\}$/;
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Request fields whose object values are merged key by key with a fragment's. */
const MERGED = ['headers', 'query', 'form', 'params'] as const;

/**
 * Expands one case of a file: one case per `each:` row (with `${row.field}` replaced), step
 * fragments (`- use: name`) inlined, request fragments (`request: {use: name}`) merged under
 * the request's own fields, and the suite's defaults applied. Problems go to `errors`.
 */
export function expandCase(
  rawCase: RawCase,
  index: number,
  fragments: Record<string, Fragment>,
  defaults: CaseDefaults,
  at: (p: SourcePath) => string,
  errors: SpecgateError[],
  operationRows?: (filter: OperationFilter) => Record<string, unknown>[] | undefined,
): ExpandedCase[] {
  const each = rawCase.each;
  // the template is the case without `each:` (no copy when it has none: it is copied into each expanded case below)
  const template: Omit<RawCase, 'each'> = each === undefined ? rawCase : withoutEach(rawCase);
  let rows: (Record<string, unknown> | undefined)[] = [undefined];
  if (Array.isArray(each)) rows = each;
  else if (each) {
    const generated = operationRows?.(each.operations);
    if (!generated) {
      errors.push(schemaError(`${at([index, 'each'])}: each: {operations} makes one row per operation of the suite's API table, and this suite has no api.yaml`));
      return [];
    }
    if (generated.length === 0) {
      errors.push(schemaError(`${at([index, 'each', 'operations'])}: no operation of api.yaml passes this filter, so the case would expand to nothing`));
      return [];
    }
    rows = generated;
  }
  const out: ExpandedCase[] = [];
  rows.forEach((row, r) => {
    let c = template as Record<string, unknown>;
    if (row) {
      const problems: string[] = [];
      c = substituteRow(template, row, problems) as Record<string, unknown>;
      for (const p of new Set(problems)) errors.push(schemaError(`${at(Array.isArray(each) ? [index, 'each', r] : [index, 'each'])}: this row has no field "${p}", which the case reads as \${row.${p}}`));
      if (!String(template.id).includes('${row.')) {
        const rowId = row['id'];
        if (typeof rowId !== 'string' || !KEBAB.test(rowId)) {
          errors.push(schemaError(`${at([index, 'each', r])}: a row needs a kebab-case "id" (or put \${row.field} placeholders in the case id) so that each expanded case has a stable ID`));
          return;
        }
        c = { ...c, id: `${String(template.id)}-${rowId}` };
      }
      if (!KEBAB.test(String(c['id']))) errors.push(schemaError(`${at([index, 'id'])}: row ${r} makes the case id "${String(c['id'])}", which is not kebab-case; use row values made of a-z, 0-9 and -`));
    }
    const stepPaths: SourcePath[] = [];
    const steps: Step[] = [];
    ((c['steps'] as Record<string, unknown>[] | undefined) ?? []).forEach((step, j) => {
      const path: SourcePath = [index, 'steps', j];
      if (typeof step['use'] === 'string' && !('request' in step)) {
        const f = fragments[step['use']];
        if (!f || f.kind !== 'steps') {
          errors.push(unknownName(`${at([...path, 'use'])}: no step fragment named "${step['use']}" in suite.yaml${fragmentNames(fragments, 'steps')}`));
          return;
        }
        // a fragment used as a precondition makes each of its steps one (unless a step names its own owner)
        const owner = step['precondition'];
        for (const s of fragmentSteps(step['use'], fragments, [], (m) => errors.push(unknownName(`${at([...path, 'use'])}: ${m}`)))) {
          const own = typeof owner === 'string' && !('precondition' in s) && !('set' in s) && !('wait' in s) ? { ...(s as object), precondition: owner } : s;
          steps.push(withRequestFragment(own as unknown as Record<string, unknown>, fragments, [...path, 'use'], at, errors));
          stepPaths.push([...path, 'use']);
        }
        return;
      }
      steps.push(withRequestFragment(step, fragments, path, at, errors));
      stepPaths.push(path);
    });
    // Object.assign, not a spread: V8 gives an object cloned by a spread a hidden class of its own
    // once a property is added to it (the loader adds each case's location), and a suite of cases
    // that each have their own class makes every read of a case slow (and the collector busy)
    const expanded = Object.assign({}, c as Omit<CaseDef, 'location' | 'steps'>) as Omit<CaseDef, 'location'>;
    expanded.steps = steps;
    applyDefaults(expanded, defaults);
    out.push({ raw: expanded, index, ...(row ? { row: r } : {}), stepPaths });
  });
  return out;
}

/**
 * The steps of step fragment `name`, with the step fragments it uses (`- use: other`) inlined in
 * turn, to any depth; a fragment that uses itself, directly or through others, or a name that is
 * no step fragment, is reported and contributes no steps.
 */
function fragmentSteps(name: string, fragments: Record<string, Fragment>, chain: readonly string[], report: (message: string) => void): Step[] {
  const f = fragments[name];
  if (!f || f.kind !== 'steps') {
    report(`step fragment ${chain.at(-1) ?? ''} uses "${name}", which is no step fragment in suite.yaml${fragmentNames(fragments, 'steps')}`);
    return [];
  }
  if (chain.includes(name)) {
    report(`step fragment "${name}" uses itself (${[...chain, name].join(' -> ')}); a fragment may use others, never itself`);
    return [];
  }
  return f.steps.flatMap((s) => {
    const use = (s as unknown as Record<string, unknown>)['use'];
    return typeof use === 'string' && !('request' in s) ? fragmentSteps(use, fragments, [...chain, name], report) : [s];
  });
}

function withoutEach(rawCase: RawCase): Omit<RawCase, 'each'> {
  const { each: _each, ...template } = rawCase;
  return template;
}

function withRequestFragment(step: Record<string, unknown>, fragments: Record<string, Fragment>, path: SourcePath, at: (p: SourcePath) => string, errors: SpecgateError[]): Step {
  const request = step['request'] as (HttpRequestSpec & { use?: string }) | undefined;
  if (!request || request.use === undefined) return step as unknown as Step;
  const { use, ...own } = request;
  const f = fragments[use];
  if (!f || f.kind !== 'request') {
    errors.push(unknownName(`${at([...path, 'request', 'use'])}: no request fragment named "${use}" in suite.yaml${fragmentNames(fragments, 'request')}`));
    return step as unknown as Step;
  }
  const merged: Record<string, unknown> = { ...f.request, ...own };
  for (const k of MERGED) {
    const a: unknown = f.request[k];
    const b: unknown = (own as Record<string, unknown>)[k];
    if (isPlainObject(a) && isPlainObject(b)) merged[k] = { ...a, ...b };
  }
  if (isPlainObject(f.request.json) && isPlainObject(own.json)) merged['json'] = { ...f.request.json, ...own.json };
  // a form, json or raw body of the step replaces the fragment's other body kinds
  const bodies = ['form', 'json', 'raw'].filter((k) => k in own);
  for (const k of ['form', 'json', 'raw']) if (bodies.length && !bodies.includes(k)) delete merged[k];
  return { ...step, request: merged } as unknown as Step;
}

function applyDefaults(c: Omit<CaseDef, 'location'>, d: CaseDefaults): void {
  if (d.timeoutMs !== undefined && c.timeoutMs === undefined) c.timeoutMs = d.timeoutMs;
  if (d.tags?.length) c.tags = [...new Set([...(c.tags ?? []), ...d.tags])];
  if (d.needs?.length) c.needs = [...new Set([...(c.needs ?? []), ...d.needs])];
  // a case that judges a rule every other case rests on does not assume it
  const own: readonly string[] = Array.isArray(c.requirements) ? c.requirements : [];
  const assumes = d.assumes?.filter((id) => !own.includes(id)) ?? [];
  if (assumes.length) c.assumes = [...new Set([...(c.assumes ?? []), ...assumes])];
}

/** Replaces `${row.x}`: a string that is only that takes the value (and its type); otherwise text. */
function substituteRow(v: unknown, row: Record<string, unknown>, missing: string[]): unknown {
  if (typeof v === 'string') {
    if (!v.includes('${row.')) return v;
    const whole = WHOLE_ROW_REF.exec(v);
    if (whole) {
      const key = whole[1] as string;
      if (!(key in row)) missing.push(key);
      return row[key];
    }
    return v.replace(ROW_REF, (_m, key: string) => {
      if (!(key in row)) missing.push(key);
      return stringify(row[key]);
    });
  }
  if (Array.isArray(v)) return v.map((x) => substituteRow(x, row, missing));
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = substituteRow(x, row, missing);
    return out;
  }
  return v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function fragmentNames(fragments: Record<string, Fragment>, kind: Fragment['kind']): string {
  const names = Object.entries(fragments).filter(([, f]) => f.kind === kind).map(([n]) => n);
  return names.length ? `; known: ${names.join(', ')}` : '';
}

function schemaError(message: string): SpecgateError {
  return new SpecgateError('SG_SUITE_SCHEMA', message);
}
function unknownName(message: string): SpecgateError {
  return new SpecgateError('SG_SUITE_UNKNOWN', message);
}
