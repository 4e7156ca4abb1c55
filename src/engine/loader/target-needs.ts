import type { ApiTable } from '../api/table.js';
import { checkSets } from '../checks/contract.js';
import { referencedVariables } from '../expressions.js';
import type { CaseDef, LoadedSuite, SourceLocation, Step } from '../model.js';
import type { Registry } from '../registry.js';
import { isTimeBound } from '../time-bound.js';
import { declaredVars, neededBy, type DeclaredVar } from '../../targets/declared-vars.js';

/**
 * What cases ask of a target before they run: the variables they read from it, the variables
 * their request URLs start with, the user-agent actions they perform, whether they use the API
 * table. The run checks a profile against it before anything starts (target-config.ts), and
 * `specgate init` and `list --vars` mark as required what it would demand: one derivation, so
 * that a variable `init` calls optional is never one the run stops for.
 */

/** One place a case relies on the target: the case and where it is written. */
export interface Use {
  caseId: string;
  at: SourceLocation;
}

/** What the cases that will run ask of the target. */
export interface Needs {
  /** Target variable -> cases that read it. */
  reads: Map<string, Use[]>;
  /** Target variable -> cases whose request URLs start with it. */
  bases: Map<string, Use[]>;
  /** User-agent action -> cases that perform it. */
  actions: Map<string, Use[]>;
  /** Some case sends a request by operation ID or runs an `api.*` check. */
  api: boolean;
  /**
   * The operations of the API table those requests and checks reach, by ID; `'*'` when some may
   * reach any (an operation named by an expression, an `api.*` check that picks its own).
   */
  operations: Set<string>;
}

/** A case the run will skip needs nothing of the target. */
function willSkip(def: CaseDef, vars: Record<string, unknown>, timeCanPass: boolean): boolean {
  if (def.skip || def.steps.length === 0) return true;
  if (def.needs?.some((v) => vars[v] === undefined || vars[v] === '')) return true;
  return isTimeBound(def) && !timeCanPass;
}

/** What one case asks of the target: variables it reads before setting them, URL bases, agent actions, API requests. */
function collect(def: CaseDef, declared: ReadonlySet<string> | undefined, registry: Registry, needs: Needs): void {
  const use: Use = { caseId: def.id, at: def.location };
  // variables the case sets itself; made only once the case sets one (most set none)
  let known: Set<string> | undefined = def.vars ? new Set(Object.keys(def.vars)) : undefined;
  const setsItself = (name: string): void => void (known ??= new Set()).add(name);
  if (def.property) {
    setsItself('case');
    setsItself('oracle');
  }
  const note = (map: Map<string, Use[]>, key: string): void => {
    const list = map.get(key);
    // cases are collected one after another, so this case's own use, if noted, is the last one
    // (looking through the whole list made a suite of thousands of cases quadratic)
    if (!list) map.set(key, [use]);
    else if (list[list.length - 1]?.caseId !== def.id) list.push(use);
  };
  const targetRead = (name: string): boolean => !known?.has(name) && (declared === undefined || declared.has(name));
  if (declared) for (const name of readsIn(def.vars ?? {})) if (declared.has(name)) note(needs.reads, name);
  for (const step of def.steps) {
    if (declared) {
      const { capture: _capture, ...acting } = step as Step & { capture?: Record<string, string> };
      for (const name of readsIn(acting)) if (targetRead(name)) note(needs.reads, name);
    }
    if ('request' in step) {
      const head = typeof step.request.url === 'string' ? /^\$\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}/.exec(step.request.url)?.[1] : undefined;
      if (head !== undefined && targetRead(head)) note(needs.bases, head);
      if (step.request.operation !== undefined) reaches(needs, step.request.operation);
    }
    if ('agent' in step) note(needs.actions, step.agent);
    if ('check' in step && step.check.startsWith('api.')) reaches(needs, step.with?.['operation']);
    if ('set' in step) for (const k of Object.keys(step.set)) setsItself(k);
    if ('capture' in step && step.capture) for (const k of Object.keys(step.capture)) setsItself(k);
    if ('check' in step && registry.has('check', step.check)) for (const k of checkSets(registry.check(step.check), step.with ?? {})) setsItself(k);
  }
}

/** Notes a request or `api.*` check through the API table: the operation it names, or any when it names none plainly. */
function reaches(needs: Needs, operation: unknown): void {
  needs.api = true;
  needs.operations.add(typeof operation === 'string' && !operation.includes('${') ? operation : ANY_OPERATION);
}

/** In {@link Needs.operations}: some request or check may reach any operation. */
export const ANY_OPERATION = '*';

/** Every variable the expressions inside a value read. */
function readsIn(v: unknown): string[] {
  if (typeof v === 'string') return safeReferences(v);
  if (Array.isArray(v)) return v.flatMap(readsIn);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.values(v).flatMap(readsIn);
  return [];
}

/** The variables an expression reads; none for one that does not parse (the loader reports its syntax). */
export function safeReferences(s: string): string[] {
  try {
    return referencedVariables(s);
  } catch {
    return []; // the loader reports expression syntax
  }
}


/**
 * What the requests through the API table to these operations read: their base URLs and, for
 * those that authenticate, the table's credentials (what the run checks when a case uses the
 * table). Every operation when `operations` holds {@link ANY_OPERATION}.
 */
export function apiTableReads(table: ApiTable, operations: ReadonlySet<string> = new Set([ANY_OPERATION])): string[] {
  return [...new Set(apiTableExpressions(table, operations).flatMap(safeReferences))];
}

/** The base URL and credential expressions of the operations reached (see {@link apiTableReads}). */
export function apiTableExpressions(table: ApiTable, operations: ReadonlySet<string>): string[] {
  const reached = operations.has(ANY_OPERATION) ? table.operations : table.operations.filter((o) => operations.has(o.id));
  const bases = reached.map((o) => o.base ?? table.base);
  const auth = table.auth && reached.some((o) => o.auth) ? [table.auth.value] : [];
  return [...new Set([...bases, ...auth])];
}

/**
 * Every case that will run, collected: a case skipped anyway (skip:, a `needs:` variable `vars`
 * leaves unset, time-bound with no way to let time pass) asks for nothing.
 */
export function targetNeeds(cases: readonly CaseDef[], declared: ReadonlySet<string> | undefined, registry: Registry, vars: Record<string, unknown>, timeCanPass: boolean): Needs {
  const needs: Needs = { reads: new Map(), bases: new Map(), actions: new Map(), api: false, operations: new Set() };
  for (const def of cases) {
    if (willSkip(def, vars, timeCanPass)) continue;
    collect(def, declared, registry, needs);
  }
  return needs;
}

/**
 * The suite's declared variables as a profile must give them for a run of `cases` (every case
 * of the suite by default; the cases of a selection, `--part` / `--requirement`, otherwise):
 * `required` is true for those suite.yaml declares `required: true` that one of those cases
 * needs (or that no case visibly needs: typed checks read them in their code), and for those a
 * case reads from the target without listing them under `needs:` (a run of that case stops
 * before it starts without them, so the profile must set them, whatever suite.yaml says).
 * Worked out for a run that may let time pass, with every required variable set (a case that
 * `needs:` one then runs too).
 */
export function profileVars(suite: LoadedSuite, registry: Registry, cases: readonly CaseDef[] = suite.cases): DeclaredVar[] {
  const vars = declaredVars(suite);
  const declared = new Set(vars.map((v) => v.name));
  const running = new Set(cases.map((c) => c.id));
  // as a run asks for them (required-vars.ts): a declared-required variable only the cases left out need is not asked for
  const required = new Set(vars.filter((v) => v.required && (neededBy(v).length === 0 || neededBy(v).some((id) => running.has(id)))).map((v) => v.name));
  // a newly required variable lets the cases that `needs:` it run, which may read more: until nothing changes
  for (;;) {
    const set = Object.fromEntries([...required].map((name) => [name, true]));
    const before = required.size;
    const needs = targetNeeds(cases, declared, registry, set, true);
    for (const name of needs.reads.keys()) required.add(name);
    if (needs.api && suite.api) for (const name of apiTableReads(suite.api, needs.operations)) if (declared.has(name)) required.add(name);
    if (required.size === before) break;
  }
  return vars.map((v) => (required.has(v.name) !== v.required ? { ...v, required: required.has(v.name) } : v));
}
