import type { TypedCheck } from '../checks/contract.js';
import type { SuiteModule } from '../suite-module.js';

/**
 * What loading a suite's files (suite-loader.ts loadSuite) asks of its module, as plain data:
 * its name and folder, the contract of each check (arguments schema, judges, what it sets), the
 * names of its generators, oracles and codecs, its schemas, the resource of each set of API
 * transitions and the requirements of each passive rule; and the contracts of the engine's API
 * verifiers (`api.<name>`), whose code costs as much to load. Loading a suite's code (its checks,
 * generators, reference, their dependencies) costs several times what checking its files does,
 * so `specgate validate` keeps the shape of a module loaded once (cli/suite-shapes.ts) and
 * checks the files against names made from it (shape-names.ts), whose code is never run.
 *
 * A check whose `sets` is computed from its arguments keeps what it answered for each `with:`
 * the loader asked about (recordingModule): the shape answers those, and for any other
 * arguments throws ShapeShortError, and the caller loads the suite's code instead.
 */
export interface SuiteShape {
  name: string;
  dir: string;
  checks: Record<string, CheckShape>;
  generators: string[];
  oracles: string[];
  codecs: string[];
  schemas: Record<string, JsonValue>;
  apiModels: Record<string, { resource: string }>;
  passiveRules: Record<string, { requirements: string[] }>;
  /** The engine's API verifiers, by name without `api.`. */
  apiChecks: Record<string, CheckShape>;
}

/** A check's contract; `sets` computed from the arguments is kept as what it gave, by the JSON of the arguments. */
export interface CheckShape {
  description: string;
  args: JsonValue;
  judges: string[] | 'case';
  sets: string[] | { byArgs: Record<string, string[]> };
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

/** Thrown by a module made from a shape when the loader needs what the shape does not hold. */
export class ShapeShortError extends Error {
  constructor(what: string) {
    super(`the kept shape of the suite does not say ${what}`);
    this.name = 'ShapeShortError';
  }
}

/** What the computed `sets` of each check answered, by check name and JSON of the arguments (recordingModule). */
export type SetsAnswers = Map<string, Map<string, string[]>>;

/**
 * `m` with each check whose `sets` is computed wrapped to note what it answers into `answers`,
 * so that the shape kept after a load can answer the same questions. Nothing else changes.
 */
export function recordingModule(m: SuiteModule, answers: SetsAnswers): SuiteModule {
  if (!m.checks || !Object.values(m.checks).some((c) => typeof (c as Partial<TypedCheck> | undefined)?.sets === 'function')) return m;
  const checks: Record<string, TypedCheck> = {};
  for (const [name, c] of Object.entries(m.checks)) {
    const sets = (c as Partial<TypedCheck> | undefined)?.sets;
    if (typeof sets !== 'function') {
      checks[name] = c;
      continue;
    }
    const compute = sets as (a: Record<string, unknown>) => readonly string[];
    const noting = (args: Record<string, unknown>): readonly string[] => {
      const out = compute(args);
      const key = argsKey(args);
      if (key !== undefined && Array.isArray(out)) {
        const byArgs = answers.get(name) ?? new Map<string, string[]>();
        byArgs.set(key, [...out]);
        answers.set(name, byArgs);
      }
      return out;
    };
    // the check itself underneath: its other fields read as they are, whatever object it is
    checks[name] = Object.create(c, { sets: { value: noting, enumerable: true } }) as TypedCheck;
  }
  return { ...m, checks };
}

/** The key of a check's arguments among recorded answers, or undefined when they are not plain JSON. */
function argsKey(args: Record<string, unknown>): string | undefined {
  return isJson(args) ? JSON.stringify(args) : undefined;
}

/**
 * The shape of a loaded module (with the engine's API verifiers `apiChecks` and what computed
 * `sets` answered during its load), or undefined when data cannot stand for it: a check without
 * a complete contract (the loader's error about it names the module's own object), or a schema
 * that is not plain JSON (it would not read back the same), or text holding control characters.
 */
export function shapeOfModule(m: SuiteModule, apiChecks: Readonly<Record<string, TypedCheck>>, answers: SetsAnswers = new Map()): SuiteShape | undefined {
  const checks = checkShapes(m.checks ?? {}, answers);
  const api = checkShapes(apiChecks, new Map());
  if (!checks || !api) return undefined;
  const apiModels: SuiteShape['apiModels'] = {};
  for (const [name, model] of Object.entries(m.apiModels ?? {})) apiModels[name] = { resource: model.resource };
  const passiveRules: SuiteShape['passiveRules'] = {};
  for (const [name, rule] of Object.entries(m.passiveRules ?? {})) passiveRules[name] = { requirements: [...rule.requirements] };
  const schemas = m.schemas ?? {};
  if (!Object.values(schemas).every(isJson)) return undefined;
  const shape: SuiteShape = {
    name: m.name,
    dir: m.dir,
    checks,
    generators: Object.keys(m.generators ?? {}),
    oracles: Object.keys(m.oracles ?? {}),
    codecs: Object.keys(m.codecs ?? {}),
    schemas: schemas as Record<string, JsonValue>,
    apiModels,
    passiveRules,
    apiChecks: api,
  };
  return isShape(shape) ? shape : undefined;
}

function checkShapes(from: Readonly<Record<string, TypedCheck>>, answers: SetsAnswers): Record<string, CheckShape> | undefined {
  const out: Record<string, CheckShape> = {};
  for (const [name, c] of Object.entries(from)) {
    const check = c as Partial<TypedCheck> | undefined;
    if (!check || typeof check !== 'object' || typeof check.run !== 'function' || typeof check.description !== 'string') return undefined;
    const judges = check.judges === 'case' ? 'case' : Array.isArray(check.judges) ? [...(check.judges as readonly string[])] : undefined;
    const sets =
      typeof check.sets === 'function'
        ? { byArgs: Object.fromEntries(answers.get(name) ?? []) }
        : check.sets === undefined
          ? []
          : Array.isArray(check.sets)
            ? [...(check.sets as readonly string[])]
            : undefined;
    if (!judges || !sets || !isJson(check.args) || typeof check.args !== 'object' || check.args === null) return undefined;
    out[name] = { description: check.description, args: check.args, judges, sets };
  }
  return out;
}

/**
 * A module that answers the loader as `shape`'s module did. Its code is stand-ins that say
 * they are not the suite's: nothing that validates a suite runs a check, a generator or a codec.
 */
export function moduleOfShape(shape: SuiteShape): SuiteModule {
  const notLoaded = (what: string) => (): never => {
    throw new ShapeShortError(`how to run ${what}`);
  };
  const names = <T>(list: string[], make: (n: string) => T): Record<string, T> => Object.fromEntries(list.map((n) => [n, make(n)]));
  return {
    name: shape.name,
    dir: shape.dir,
    checks: checksOfShapes(shape.checks),
    generators: names(shape.generators, (n) => notLoaded(`generator ${n}`)),
    oracles: names(shape.oracles, (n) => notLoaded(`oracle ${n}`)),
    codecs: names(shape.codecs, (n) => ({ encode: notLoaded(`codec ${n}`), decode: notLoaded(`codec ${n}`) })),
    schemas: shape.schemas as Record<string, object>,
    apiModels: names(Object.keys(shape.apiModels), (n) => ({ resource: (shape.apiModels[n] as { resource: string }).resource, transitions: {} })),
    passiveRules: names(Object.keys(shape.passiveRules), (n) => ({
      description: `passive rule ${n}`,
      requirements: (shape.passiveRules[n] as { requirements: string[] }).requirements,
      judge: notLoaded(`passive rule ${n}`),
    })),
  };
}

/** Checks that answer the loader as the shapes say; running one throws. */
export function checksOfShapes(shapes: Readonly<Record<string, CheckShape>>): Record<string, TypedCheck> {
  const checks: Record<string, TypedCheck> = {};
  for (const [name, c] of Object.entries(shapes)) {
    const known = c.sets;
    const sets = Array.isArray(known)
      ? known
      : (args: Record<string, unknown>): readonly string[] => {
          const key = argsKey(args);
          const hit = key === undefined ? undefined : known.byArgs[key];
          if (!hit) throw new ShapeShortError(`what check ${name} sets with these arguments`);
          return hit;
        };
    const run = (): never => {
      throw new ShapeShortError(`how to run check ${name}`);
    };
    checks[name] = { description: c.description, args: c.args as object, judges: c.judges, sets, run } as unknown as TypedCheck;
  }
  return checks;
}

// C0 controls but tab and newline, DEL and the C1 controls: text read back from a cache may be printed
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Whether a value read back (or about to be kept) is a shape in every field, holding no control characters. */
export function isShape(x: unknown): x is SuiteShape {
  if (!isRecord(x)) return false;
  return isText(x['name']) && isText(x['dir'])
    && isRecordOf(x['checks'], isCheckShape) && isRecordOf(x['apiChecks'], isCheckShape)
    && isTexts(x['generators']) && isTexts(x['oracles']) && isTexts(x['codecs'])
    && isRecordOf(x['schemas'], isJson)
    && isRecordOf(x['apiModels'], (a) => isRecord(a) && isText(a['resource']))
    && isRecordOf(x['passiveRules'], (r) => isRecord(r) && isTexts(r['requirements']));
}

function isCheckShape(c: unknown): c is CheckShape {
  if (!isRecord(c)) return false;
  const sets = c['sets'];
  return isText(c['description']) && isJson(c['args']) && isRecord(c['args']) && (c['judges'] === 'case' || isTexts(c['judges']))
    && (isTexts(sets) || (isRecord(sets) && Object.keys(sets).length === 1 && isRecordOf(sets['byArgs'], isTexts)));
}

/** Plain JSON that reads back as it was: no undefined, functions, class instances, non-finite numbers, nor control characters in text. */
function isJson(x: unknown): x is JsonValue {
  if (x === null || typeof x === 'boolean') return true;
  if (typeof x === 'number') return Number.isFinite(x);
  if (typeof x === 'string') return isText(x);
  if (Array.isArray(x)) return x.every(isJson);
  if (typeof x !== 'object' || Object.getPrototypeOf(x) !== Object.prototype) return false;
  return Object.entries(x).every(([k, v]) => isText(k) && isJson(v));
}

function isText(x: unknown): x is string {
  return typeof x === 'string' && !CONTROL.test(x);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isTexts(x: unknown): x is string[] {
  return Array.isArray(x) && x.every(isText);
}

function isRecordOf(x: unknown, each: (v: unknown) => boolean): boolean {
  return isRecord(x) && Object.entries(x).every(([k, v]) => isText(k) && each(v));
}
