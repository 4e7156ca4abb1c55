import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv as AjvInstance, ErrorObject, Options, ValidateFunction } from 'ajv';
import { SpecgateError, type SpecgateErrorCode } from '../../errors.js';
import { fromRoot } from '../../paths.js';
import { MAX_JSON_DEPTH } from '../../targets/json-depth.js';
import type { YamlSource } from './yaml-source.js';
import { compiledValidator } from './compiled-validators.js';
import { nearestNames } from '../near-names.js';
import { getPath } from '../json-path.js';
import { pointerSegments } from '../schema-branches.js';

/** The JSON Schemas that ship in `schemas/` (editors use the same files). */
export type SchemaName = 'cases' | 'requirements' | 'baseline' | 'target-profile' | 'suite' | 'api' | 'har' | 'trace';

const compiled = new Map<SchemaName, ValidateFunction>();
const texts = new Map<SchemaName, string>();

/** The schema file's text: part of the parse cache's key, so a schema change invalidates it. */
export function schemaText(name: SchemaName): string {
  let t = texts.get(name);
  if (t === undefined) {
    t = readFileSync(fromRoot('schemas', `${name}.schema.json`), 'utf8');
    texts.set(name, t);
  }
  return t;
}

const require = createRequire(import.meta.url);
const AJV_OPTIONS: Options = { allErrors: true, strict: false, allowUnionTypes: true, verbose: true, discriminator: true };

/**
 * A new Ajv with the options every schema check of specgate uses (suite files, profiles,
 * baselines, check arguments, response schemas): all errors at once, schemas written for
 * editors accepted (`strict: false`), the failing value kept for messages (`verbose`).
 * Make every Ajv here, so that a rule reads the same wherever a schema is checked.
 */
export function createAjv(more: Options = {}): AjvInstance {
  // required, not imported: a load that finds its validators compiled in the cache never needs it
  const { Ajv } = require('ajv') as { Ajv: new (o: Options) => AjvInstance };
  return new Ajv({ ...AJV_OPTIONS, ...more });
}

/**
 * The validator of `schemas[main]`, compiled once and then kept as code in the parse cache
 * (compiled-validators.ts), with the options of {@link createAjv}.
 */
export function cachedValidator(schemas: Readonly<Record<string, string | object>>, main: string): ValidateFunction {
  return compiledValidator(schemas, main, AJV_OPTIONS, createAjv);
}

/** Validators of single schemas by the schema object: a run asks for each many times. */
const validators = new WeakMap<object, ValidateFunction>();

/**
 * The validator of one schema (its `$ref`s point inside it), registered as `name`: compiled once
 * and then kept as code (cachedValidator), so a run that checks answers against a suite's
 * schemas evaluates kept code rather than compiling each schema again.
 */
export function schemaValidator(name: string, schema: object): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    v = cachedValidator({ [name]: schema }, name);
    validators.set(schema, v);
  }
  return v;
}

/**
 * A value as JSON Schema sees it: bigints (exact YAML or JSON integers) become numbers. Only
 * the arrays and objects on the way to a bigint are copied; the rest is shared, so checking a
 * 50 MB body against a schema does not build a second 50 MB tree. Validation recurses once per
 * level, so a value nested beyond {@link MAX_JSON_DEPTH} (one that did not come through the
 * body parser, which holds bodies to it) is refused, not walked.
 */
export function jsonSafe(v: unknown, depth = 0): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (!v || typeof v !== 'object' || v instanceof Uint8Array) return v;
  if (depth >= MAX_JSON_DEPTH) throw new SpecgateError('SG_TARGET_PROTOCOL', `the value checked against a schema nests deeper than specgate's limit of ${MAX_JSON_DEPTH} levels`, { limit: MAX_JSON_DEPTH });
  if (Array.isArray(v)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const safe = jsonSafe(x, depth + 1);
      if (safe !== x) (copy ??= v.slice())[i] = safe;
    }
    return copy ?? v;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v)) {
    const safe = jsonSafe(x, depth + 1);
    // defineProperty: a body's "__proto__" key is data, not the copy's prototype
    if (safe !== x) Object.defineProperty((copy ??= { ...v }), k, { value: safe, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? v;
}

let shared: AjvInstance | undefined;
const added = new Set<SchemaName>();

/**
 * The validator of a shipped schema, with the schemas it refers to by `$id` (`suite.schema.json`
 * reuses the step and request shapes of `cases.schema.json`).
 */
function validator(name: SchemaName): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    const texts: Partial<Record<SchemaName, string>> = { [name]: schemaText(name) };
    if (name === 'suite') texts.cases = schemaText('cases');
    v = cachedValidator(texts, name);
    compiled.set(name, v);
  }
  return v;
}

/** The Ajv holding every shipped schema, for the sub-schemas only an error message needs. */
function sharedAjv(): AjvInstance {
  shared ??= createAjv();
  return shared;
}

function addShipped(name: SchemaName): void {
  if (added.has(name)) return;
  added.add(name);
  sharedAjv().addSchema(JSON.parse(schemaText(name)) as object, name);
}

let casesId: string | undefined;

/** The schema of one step kind (a branch of the step oneOf of cases.schema.json). */
function stepBranch(kind: number): ValidateFunction {
  addShipped('cases');
  casesId ??= (JSON.parse(schemaText('cases')) as { $id: string }).$id;
  const v = sharedAjv().getSchema(`${casesId}#/definitions/step/oneOf/${kind}`);
  if (!v) throw new SpecgateError('SG_INTERNAL', `cases.schema.json has no step branch ${kind}`);
  return v;
}

/** In the order of the step `oneOf` branches of cases.schema.json. */
// in the order of the step's oneOf branches in schemas/cases.schema.json
const STEP_KINDS = ['request', 'exec', 'check', 'wait', 'agent', 'set', 'use', 'query', 'command'];

/**
 * How a violation reads. `suite` (suite files, baselines): `path: rule`, with the rule in
 * specgate's words. `profile` (target profiles): `path rule` in ajv's words, the root called
 * "the profile", as profile errors have always been worded.
 */
export type SchemaPhrasing = 'suite' | 'profile';

/**
 * Validates a parsed file against its schema and turns every violation into a message with
 * file:line:column and the rule broken; an unknown or invalid property name is placed on its
 * own key. Returns [] when valid.
 */
export function schemaErrors(src: YamlSource, name: SchemaName, code: SpecgateErrorCode, phrasing: SchemaPhrasing = 'suite'): SpecgateError[] {
  const validate = validator(name);
  if (validate(src.data)) return [];
  // A `${row.field}` placeholder stands for a row's value: a case template whose placeholders
  // break a rule (a pattern, a type) is checked once per expanded row instead (the loader does).
  const all = validate.errors ?? [];
  const templated = new Set(name === 'cases' ? all.filter((e) => isRowPlaceholder(e.data)).map((e) => e.instancePath.split('/')[1]) : []);
  // in a profile's words, a name's own rule (a pattern inside propertyNames) repeats what the propertyNames error says of it
  const errors = pickRelevant(all, src.data, phrasing).filter((e) => !templated.has(e.instancePath.split('/')[1]) && (phrasing !== 'profile' || e.propertyName === undefined));
  return errors.map((e) => {
    const path = pointerSegments(e.instancePath);
    const key = e.keyword === 'additionalProperties' ? e.params['additionalProperty'] : e.keyword === 'propertyNames' ? e.params['propertyName'] : undefined;
    const keyPath = [...path, String(key)];
    const at = key !== undefined ? (src.locateKey?.(keyPath) ?? src.locate(keyPath)) : src.locate(path);
    // `path`: the value (or the unknown or invalid key) the rule is about, for readers that set it aside
    return new SpecgateError(code, `${src.file}:${at.line}:${at.column}: ${describe(e, phrasing)}`, { ...at, rule: e.schemaPath, path: key !== undefined ? keyPath : path });
  });
}

function isRowPlaceholder(v: unknown): boolean {
  return typeof v === 'string' && v.includes('${row.');
}

/**
 * Problems of one case after its `each:` row was substituted (its template passed with the
 * placeholders standing in): the path below the case and the rule broken.
 */
export function expandedCaseProblems(value: unknown): { path: string[]; message: string }[] {
  const validate = validator('cases');
  const data = [value];
  if (validate(data)) return [];
  return pickRelevant(validate.errors ?? [], data, 'suite').map((e) => {
    const path = pointerSegments(e.instancePath).slice(1);
    const key = e.keyword === 'additionalProperties' ? [String(e.params['additionalProperty'])] : [];
    return { path: [...path, ...key], message: describe(e, 'suite').replace(/^0\.?/, '') };
  });
}

// ajv writes the schemaPath of an error inside a $ref'd definition relative to that definition
// (`#/oneOf/2/required`), so both forms are recognised; the instance path tells a step's oneOf
// from the other oneOfs (`repeat`) and a case's anyOf from the rest.
const STEP_PATH = /^(?:\/\d+|\/fragments\/[^/]+)\/steps\/\d+$/;
/** The step an instance path is inside of. */
const STEP_PREFIX = /^(?:\/\d+|\/fragments\/[^/]+)\/steps\/\d+/;
const STEP_BRANCH = /^#(?:\/definitions\/step)?\/oneOf\/(\d+)\//;
const STEP_ONEOF = /^#(?:\/definitions\/step)?\/oneOf$/;
const CASE_PATH = /^\/\d+$/;
/** The `command:` of a step (a document-database command). */
const COMMAND_PATH = /\/steps\/\d+\/command$/;
const CASE_ANYOF = /^#(?:\/definitions\/case)?\/anyOf(\/|$)/;

/**
 * ajv reports every branch of a oneOf; keep only the branch the author meant (by the step's kind
 * key), and say once that a case needs steps or skip instead of one error per anyOf branch.
 */
function pickRelevant(errors: ErrorObject[], data: unknown, phrasing: SchemaPhrasing): ErrorObject[] {
  const pathOf = (e: ErrorObject): string[] => pointerSegments(e.instancePath);
  const isStepOneOf = (e: ErrorObject): boolean => e.keyword === 'oneOf' && STEP_PATH.test(e.instancePath) && STEP_ONEOF.test(e.schemaPath);
  const isCaseAnyOf = (e: ErrorObject): boolean => CASE_PATH.test(e.instancePath) && CASE_ANYOF.test(e.schemaPath);
  const kept = errors.filter((e) => {
    // an if/then/else also reports "must match the else schema": the branch's own error says it
    if (isStepOneOf(e) || isCaseAnyOf(e) || e.keyword === 'if') return false;
    // inside a step of a known kind, the errors of its own branch alone are added below
    const under = STEP_PREFIX.exec(e.instancePath);
    if (under && stepKind(getPath(data, pathOf({ ...e, instancePath: under[0] }))) >= 0) return false;
    const m = STEP_PATH.test(e.instancePath) ? STEP_BRANCH.exec(e.schemaPath) : null;
    if (!m) return true;
    const kind = stepKind(getPath(data, pathOf(e)));
    return kind >= 0 && Number(m[1]) === kind;
  });
  // ajv reports every branch of a step's oneOf, deep errors with paths relative to the
  // definitions they came from; checking the step against its own kind's branch says only what
  // the author meant
  const steps = new Set(errors.map((e) => STEP_PREFIX.exec(e.instancePath)?.[0]).filter((p): p is string => p !== undefined));
  for (const at of steps) {
    const step = getPath(data, pointerSegments(at));
    const kind = stepKind(step);
    if (kind < 0) continue;
    const branch = stepBranch(kind);
    if (branch(step)) continue;
    for (const e of branch.errors ?? []) if (e.keyword !== 'if') kept.push({ ...e, instancePath: `${at}${e.instancePath}` });
  }
  for (const e of errors.filter(isStepOneOf)) {
    if (stepKind(getPath(data, pathOf(e))) < 0)
      kept.push({ ...e, keyword: 'stepKind', message: `a step needs exactly one of: ${STEP_KINDS.join(', ')}` });
  }
  for (const e of errors.filter((x) => isCaseAnyOf(x) && x.keyword === 'anyOf'))
    kept.push({ ...e, keyword: 'caseBody', message: 'a case needs steps (or skip: with the reason it is not run)' });
  const seen = new Set<string>();
  return kept.filter((e) => {
    const key = `${e.instancePath}|${describe(e, phrasing)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function stepKind(step: unknown): number {
  if (!step || typeof step !== 'object') return -1;
  const kinds = STEP_KINDS.filter((k) => k in step);
  return kinds.length === 1 ? STEP_KINDS.indexOf(kinds[0] as string) : -1;
}

function describe(e: ErrorObject, phrasing: SchemaPhrasing): string {
  if (phrasing === 'profile') return describeForProfile(e);
  const where = e.instancePath ? `${e.instancePath.replace(/^\//, '').replace(/\//g, '.')}` : 'the file';
  switch (e.keyword) {
    case 'additionalProperties':
      return `${where}: unknown key "${String(e.params['additionalProperty'])}" (not allowed here; check its spelling)`;
    case 'required':
      return `${where}: missing required key "${String(e.params['missingProperty'])}"`;
    case 'enum':
      return `${where}: must be one of ${JSON.stringify(e.params['allowedValues'])}`;
    case 'pattern':
      return `${where}: ${JSON.stringify(valueText(e))} does not match the form ${String(e.params['pattern'])}`;
    case 'stepKind':
    case 'caseBody':
      return `${where}: ${e.message ?? ''}`;
    case 'type':
    case 'minProperties':
      // a command written as its name alone (`command: find`) is the likely slip: say what one looks like
      if (COMMAND_PATH.test(e.instancePath))
        return `${where}: a command is a document whose first key names the operation, not ${Array.isArray(e.data) ? 'a list' : JSON.stringify(e.data)}; write it as a mapping, e.g. command: { find: names, filter: { name: Ada } }`;
      return `${where}: ${e.message ?? e.keyword}`;
    default:
      return `${where}: ${e.message ?? e.keyword}`;
  }
}

function valueText(e: ErrorObject): unknown {
  return e.data;
}

/** A profile's rule broken, in ajv's words, and what to write instead. */
function describeForProfile(e: ErrorObject): string {
  const where = e.instancePath ? pointerSegments(e.instancePath).join('.') : 'the profile';
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
    const allowed = Object.keys((e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}).filter((k) => k !== '$schema');
    const near = nearestNames(params['additionalProperty'], allowed, 1)[0];
    const fix = near ? `did you mean "${near}"? ` : '';
    return `${where} has an unknown property "${params['additionalProperty']}"; ${fix}${allowed.length ? `the keys allowed here: ${allowed.join(', ')}` : 'remove it'}`;
  }
  if (e.keyword === 'propertyNames' && typeof params['propertyName'] === 'string') {
    const pattern = (e.schema as { pattern?: unknown } | undefined)?.pattern;
    return `${where} has an invalid name "${params['propertyName']}"${typeof pattern === 'string' ? `; rename it to match ${pattern}` : ''}`;
  }
  if (e.keyword === 'enum' && Array.isArray(params['allowedValues'])) return `${where} must be one of: ${params['allowedValues'].map(String).join(', ')}`;
  if (e.keyword === 'type') return `${where} ${e.message ?? e.keyword}, not ${shownValue(e.data)}; write ${String(params['type']).split(',').map((t) => TYPE_WORDS[t] ?? t).join(' or ')} there`;
  if (e.keyword === 'required') return `${where} ${e.message ?? e.keyword}; add it`;
  return `${where} ${e.message ?? e.keyword}`;
}

/** JSON Schema's types as a profile's author writes them in YAML. */
const TYPE_WORDS: Record<string, string> = { integer: 'a whole number', number: 'a number', string: 'text', boolean: 'true or false', object: 'a mapping', array: 'a list', null: 'nothing' };

/** What kind of value a profile holds where a rule wants another: never the value, which may be a secret written out. */
function shownValue(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'empty';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'boolean') return 'true or false';
  if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? 'a whole number' : 'a number';
  return `a ${typeof v}`;
}
