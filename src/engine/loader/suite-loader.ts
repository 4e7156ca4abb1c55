import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import { unknownOperators } from '../../checks/matchers.js';
import { compile } from '../expressions.js';
import { nearestNames } from '../near-names.js';
import { parseJsonPath } from '../json-path.js';
import type { CaseDef, LoadedSuite, Requirement, SourceLocation, Step } from '../model.js';
import type { SuiteNames } from './suite-names.js';
import type { SuiteModule } from '../suite-module.js';
import type { TypedCheck } from '../checks/contract.js';
import { cacheGet, cachePut } from './parse-cache.js';
import { expandCase, type RawCase, type SourcePath } from './case-expansion.js';
import { checkCaseContracts } from './case-contract.js';
import { casePatterns } from '../passive/request-pattern.js';
import { expandedCaseProblems, schemaErrors, schemaText } from './schema-check.js';
import { loadSchemaFiles } from './schema-files.js';
import { loadSuiteFile } from './suite-file.js';
import { checkVariableFlow } from './variable-flow.js';
import { loadApiTable } from '../api/load-table.js';
import { checkApiUse } from '../api/check-cases.js';
import { operationRows } from '../api/operation-rows.js';
import { parseYaml, type YamlSource } from './yaml-source.js';
import { mixedSideProblem, requirementSideProblems } from '../sides.js';
import { partProblems } from '../selection.js';
import { loadTrace } from '../trace/load-trace.js';

/**
 * Loads a suite's catalog and case files and checks them completely before anything runs:
 * schema, unique IDs, references to requirements and registered names, expression syntax.
 * Every problem is reported (file:line:column), not just the first.
 *
 * `kept` are case files outside the suite's folder (user-case-files.ts sorts them by suite): of
 * those, the cases that name this suite (`suite:`) are loaded and checked as its own, after them.
 */
export function loadSuite(module: SuiteModule, registry: SuiteNames, cwd = process.cwd(), kept: readonly string[] = []): LoadedSuite {
  const errors: SpecgateError[] = [];
  const shown = (f: string): string => display(f, cwd);
  const requirements = loadRequirements(module.dir, errors, cwd);
  for (const [name, check] of Object.entries(module.checks ?? {})) {
    const c = check as Partial<TypedCheck> | undefined;
    if (!c || typeof c !== 'object' || typeof c.run !== 'function' || !c.args || !(c.judges === 'case' || Array.isArray(c.judges)))
      errors.push(new SpecgateError('SG_SUITE_SCHEMA', `suite ${module.name}: check "${name}" has no contract; declare it with defineCheck({ description, args, judges, sets, run }) (src/engine/checks/contract.ts)`));
  }
  const catalog = new Set(requirements.map((r) => r.id));
  for (const [name, rule] of Object.entries(module.passiveRules ?? {}))
    for (const id of rule.requirements)
      if (!catalog.has(id)) errors.push(new SpecgateError('SG_SUITE_SCHEMA', `suite ${module.name}: passive rule "${name}" judges requirement "${id}", which requirements.yaml does not have; fix the ID or add the requirement`));
  const before = errors.length;
  const suiteFile = loadSuiteFile(module.dir, shown, errors);
  // a suite.yaml that did not load declares no sides: its own error says why, nothing more to add
  if (errors.length === before) {
    errors.push(...requirementSideProblems(requirements, suiteFile.sides, shown(join(module.dir, 'suite.yaml'))));
    errors.push(...partProblems(requirements, suiteFile.parts, shown(join(module.dir, 'suite.yaml'))));
  }
  registry.addSchemas(module.name, loadSchemaFiles(module.dir, shown, errors));
  const api = loadApiTable(module, registry, shown, errors);
  const trace = loadTrace(module.dir, requirements, shown, errors);
  const declared = suiteFile.vars ? new Set(Object.keys(suiteFile.vars)) : undefined;
  const known = new Map(requirements.map((r) => [r.id, r]));
  const cases: CaseDef[] = [];
  const seen = new Map<string, SourceLocation>();
  const own = caseFiles(module.dir);
  for (const [f, file] of [...own, ...kept].entries()) {
    const outside = f >= own.length;
    let src: YamlSource;
    try {
      src = readValid(file, shown(file), 'cases');
    } catch (e) {
      collect(e, errors);
      continue;
    }
    const atFile = (path: SourcePath, key = false): string => {
      const l = key && src.locateKey ? src.locateKey(path) : src.locate(path);
      return `${l.file}:${l.line}:${l.column}`;
    };
    (src.data as RawCase[]).forEach((rawCase, i) => {
      // a file kept outside may hold cases of several suites: the others are theirs to load
      if (outside && rawCase.suite !== module.name) return;
      if (!outside && rawCase.suite !== undefined && rawCase.suite !== module.name) {
        errors.push(schemaError(`${atFile([i, 'suite'])}: this file is in the folder of suite ${module.name}, but the case names suite "${rawCase.suite}"; move it to that suite, or write suite: ${module.name}`));
        return;
      }
      const location = src.locate([i]);
      checkExpressions(rawCase, (p) => atFile([i, ...p]), errors);
      for (const x of expandCase(rawCase, i, suiteFile.fragments, suiteFile.defaults, atFile, errors, (f) => (api ? operationRows(api, f) : undefined))) {
        if (x.row !== undefined)
          for (const p of expandedCaseProblems(x.raw)) errors.push(schemaError(`${atFile(p.path[0] === 'steps' ? [...(x.stepPaths[Number(p.path[1])] ?? [i]), ...p.path.slice(2)] : [i, ...p.path])}: with row ${x.row} of each: ${p.message}`));
        // the expanded case is a fresh object of its own: it takes its location rather than being copied
        const c = x.raw as CaseDef;
        c.location = location;
        const at = (path: (string | number)[]): string => atFile([i, ...path]);
        const stepAt = (j: number, p: (string | number)[], key = false): string => (j < 0 ? at(p) : atFile([...(x.stepPaths[j] ?? [i, 'steps']), ...p], key));
        const prev = seen.get(c.id);
        if (prev && outside) errors.push(schemaError(`${at(['id'])}: case id "${c.id}" of suite ${module.name} is already the id of the case at ${prev.file}:${prev.line}:${prev.column}; give this case another id`));
        else if (prev) errors.push(schemaError(`${at(['id'])}: duplicate case id "${c.id}" (first at ${prev.file}:${prev.line})`));
        seen.set(c.id, location);
        for (let j = 0; j < c.requirements.length; j++) {
          const id = c.requirements[j] as string;
          const requirement = known.get(id);
          if (!requirement) errors.push(schemaError(`${at(['requirements', j])}: ${unknownRequirement(id, module.name, known, outside)}`));
          else if (requirement.excluded)
            errors.push(schemaError(`${at(['requirements', j])}: requirement "${id}" is excluded (${requirement.excluded}); a case cannot cover it — drop \`excluded:\` or the reference`));
        }
        for (const e of reliedOnProblems(c, known, at, stepAt)) errors.push(schemaError(e));
        // a position below the top level costs a cached file a full parse: only look it up for a case that mixes sides
        if (sidesOf(c.requirements, known) > 1) {
          const mixed = mixedSideProblem(c, known, at(['requirements']));
          if (mixed) errors.push(mixed);
        }
        if (c.property) {
          if (!registry.has('generator', c.property.generate))
            errors.push(unknownName(`${at(['property', 'generate'])}: no generator named "${c.property.generate}"`));
          if (c.property.oracle && !registry.has('oracle', c.property.oracle))
            errors.push(unknownName(`${at(['property', 'oracle'])}: no oracle named "${c.property.oracle}"`));
        }
        for (let j = 0; j < c.steps.length; j++) checkStep(c.steps[j] as Step, c, registry, j, stepAt, errors);
        checkCaseContracts(c, registry, stepAt, errors);
        if (c.passive === 'judge')
          for (const p of casePatterns(c, api).problems)
            errors.push(schemaError(`${p.step < 0 ? at(p.path) : stepAt(p.step, p.path)}: case "${c.id}" says passive: judge, but ${p.message}; drop passive: (the case then needs a live target) or the step`));
        checkApiUse(c, api, module.apiModels, stepAt, errors);
        if (declared) checkVariableFlow(c, declared, registry, stepAt, errors);
        cases.push(c);
      }
    });
  }
  if (errors.length) throw new SpecgateErrorList(errors);
  return { name: module.name, dir: module.dir, requirements, cases, ...(suiteFile.vars ? { vars: suiteFile.vars } : {}), ...(api ? { api } : {}), ...(suiteFile.sides ? { sides: suiteFile.sides } : {}), ...(suiteFile.parts ? { parts: suiteFile.parts } : {}), ...(trace ? { trace } : {}) };
}

/**
 * What a case relies on must be a rule the run can judge: an assumed requirement is another
 * known, not excluded requirement of the suite (a case cannot assume what it judges itself),
 * and a precondition's owner a known, not excluded one.
 */
function reliedOnProblems(c: CaseDef, known: ReadonlyMap<string, Requirement>, at: (p: (string | number)[]) => string, stepAt: (j: number, p: (string | number)[]) => string): string[] {
  const out: string[] = [];
  const problem = (id: string): string | undefined => {
    const r = known.get(id);
    if (!r) return `unknown requirement "${id}"; add it to requirements.yaml or fix the ID`;
    if (r.excluded) return `requirement "${id}" is excluded (${r.excluded}), so no run judges it and nothing can rest on it`;
    return undefined;
  };
  (c.assumes ?? []).forEach((id, j) => {
    const p = problem(id) ?? (c.requirements.includes(id) ? `the case judges "${id}" itself, so it cannot assume it; drop it from assumes:` : undefined);
    if (p) out.push(`${at(['assumes', j])}: ${p}`);
  });
  c.steps.forEach((step, j) => {
    const owner = step.precondition;
    const p = owner === undefined ? undefined : problem(owner);
    if (p) out.push(`${stepAt(j, ['precondition'])}: ${p}`);
  });
  return out;
}

/**
 * Why a case's requirement ID is refused, with the IDs it was probably meant to be: a case of the
 * suite's own files may name a requirement still to be added; one kept outside judges only the
 * requirements its suite has.
 */
function unknownRequirement(id: string, suite: string, known: ReadonlyMap<string, Requirement>, outside: boolean): string {
  const near = nearestNames(id, [...known.keys()]).map((n) => `"${n}"`);
  const hint = near.length ? ` (did you mean ${near.join(' or ')}?)` : '';
  if (!outside) return `unknown requirement "${id}"; add it to requirements.yaml or fix the ID${hint}`;
  return `suite ${suite} has no requirement "${id}"${hint}; a case kept outside the suite's folder judges requirements of the suite it names (\`specgate list --suite ${suite}\` lists them)`;
}

/** How many sides of the protocol the requirements `ids` belong to (two meaning two or more). */
function sidesOf(ids: readonly string[], known: ReadonlyMap<string, Requirement>): number {
  let first: string | undefined;
  for (const id of ids) {
    const side = known.get(id)?.side;
    if (side === undefined) continue;
    if (first === undefined) first = side;
    else if (side !== first) return 2;
  }
  return first === undefined ? 0 : 1;
}

/** Requirements neither covered by a case nor excluded (the lint test keeps this empty). */
export function coverageGaps(suite: LoadedSuite): Requirement[] {
  const covered = new Set(suite.cases.flatMap((c) => c.requirements));
  return suite.requirements.filter((r) => !r.excluded && !covered.has(r.id));
}

function loadRequirements(dir: string, errors: SpecgateError[], cwd: string): Requirement[] {
  const file = join(dir, 'requirements.yaml');
  let src: YamlSource;
  try {
    src = readValid(file, display(file, cwd), 'requirements');
  } catch (e) {
    collect(e, errors);
    return [];
  }
  const ids = new Set<string>();
  return (src.data as Requirement[]).map((r, i) => {
    const location = src.locate([i]);
    if (ids.has(r.id)) errors.push(schemaError(`${location.file}:${location.line}:${location.column}: duplicate requirement id "${r.id}"`));
    ids.add(r.id);
    return { ...r, location };
  });
}

/**
 * A file parsed and checked against its schema, from the parse cache when its content was seen
 * before. Deeper positions (for cross-reference errors) come from a full parse on demand.
 * `path` is read; `file` names it in messages and locations.
 */
export function readValid(path: string, file: string, schema: 'cases' | 'requirements'): YamlSource {
  let text: string;
  try {
    // read by the real path: `file` is the name shown in messages, relative to the caller's cwd
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new SpecgateError('SG_SUITE_SYNTAX', `${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)}); check the path`);
  }
  const fingerprint = schemaText(schema);
  const hit = cacheGet(text, fingerprint);
  if (hit && Array.isArray(hit.data)) {
    let full: YamlSource | undefined;
    return {
      file,
      data: hit.data,
      locate: (path) => {
        const top = path.length === 1 ? hit.items[Number(path[0])] : undefined;
        // the same content may sit in another file, or be named from another folder: only the position is kept
        if (top) return { file, line: top[0], column: top[1] };
        full ??= parseYaml(file, text);
        return full.locate(path);
      },
      // an unknown key is named where it is written, cached or not
      locateKey: (path) => {
        full ??= parseYaml(file, text);
        return full.locateKey?.(path) ?? full.locate(path);
      },
    };
  }
  const src = parseYaml(file, text);
  const found = schemaErrors(src, schema, 'SG_SUITE_SCHEMA');
  if (found.length) throw new SpecgateErrorList(found);
  const items = Array.isArray(src.data) ? src.data.map((_x, i): [number, number] => {
    const at = src.locate([i]);
    return [at.line, at.column];
  }) : [];
  cachePut(text, fingerprint, { data: src.data, items });
  return src;
}

function caseFiles(dir: string): string[] {
  return yamlFilesUnder(join(dir, 'cases'));
}

/** The YAML files under a folder, at any depth, in name order (none when it does not exist). */
export function yamlFilesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(name)) out.push(p);
    }
  };
  walk(root);
  return out;
}

function checkStep(step: Step, c: CaseDef, registry: SuiteNames, index: number, stepAt: (j: number, p: (string | number)[]) => string, errors: SpecgateError[]): void {
  // a position is looked up only for a problem found
  const at = (p: (string | number)[]): string => stepAt(index, p);
  const expect = 'expect' in step ? step.expect : undefined;
  const attributed = expect?.requirement;
  if (attributed && !c.requirements.includes(attributed))
    errors.push(schemaError(`${at(['expect', 'requirement'])}: "${attributed}" is not one of this case's requirements (${c.requirements.join(', ')})`));
  if ('request' in step && step.request.url === undefined && step.request.operation === undefined && !('use' in step.request))
    errors.push(schemaError(`${at(['request'])}: a request needs a url (or an API operation), given here or by its fragment`));
  if ('check' in step && !registry.has('check', step.check)) errors.push(unknownName(`${at(['check'])}: no check named "${step.check}"`));
  if ('exec' in step && step.exec.stdin?.encode && !registry.has('codec', step.exec.stdin.encode.codec))
    errors.push(unknownName(`${at(['exec', 'stdin', 'encode', 'codec'])}: no codec named "${step.exec.stdin.encode.codec}"`));
  if ('exec' in step && step.expect?.decode && !registry.has('codec', step.expect.decode))
    errors.push(unknownName(`${at(['expect', 'decode'])}: no codec named "${step.expect.decode}"`));
  if ('request' in step && step.expect?.schema && !registry.hasSchema(step.expect.schema))
    errors.push(unknownName(`${at(['expect', 'schema'])}: no schema named "${step.expect.schema}"`));
  if (step.capture) for (const [name, source] of Object.entries(step.capture)) {
    if (source.startsWith('$')) {
      try {
        parseJsonPath(source);
      } catch (e) {
        errors.push(schemaError(`${at(['capture', name])}: ${(e as Error).message}`));
      }
    }
  }
  walkMatchers(expect, (m, path) => {
    const bad = unknownOperators(m);
    if (bad.length) errors.push(schemaError(`${at(['expect', ...path])}: unknown matcher ${bad.join(', ')}`));
    const schema = m['$schema'];
    if (typeof schema === 'string' && !registry.hasSchema(schema)) errors.push(unknownName(`${at(['expect', ...path])}: no schema named "${schema}"`));
  });
}

/** Visits every operator object in an expectation; `path` is one array, pushed and popped (a visitor copies it to keep it). */
function walkMatchers(v: unknown, visit: (m: Record<string, unknown>, path: (string | number)[]) => void, path: (string | number)[] = []): void {
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      walkMatchers(v[i], visit, path);
      path.pop();
    }
    return;
  }
  const keys = Object.keys(v);
  const record = v as Record<string, unknown>;
  // an operator object: every key starts with `$` (isOperatorObject, without listing the keys twice)
  let operators = keys.length > 0;
  for (const k of keys) if (!k.startsWith('$')) operators = false;
  if (operators) visit(record, path);
  for (const k of keys) {
    path.push(k);
    walkMatchers(record[k], visit, path);
    path.pop();
  }
}

function checkExpressions(v: unknown, at: (p: (string | number)[]) => string, errors: SpecgateError[], path: (string | number)[] = []): void {
  // one path array, pushed and popped: a suite of thousands of cases walks every string once
  if (typeof v === 'string') {
    if (!v.includes('${')) return;
    try {
      compile(v);
    } catch (e) {
      errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${at([...path])}: ${(e as Error).message}`));
    }
  } else if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      checkExpressions(v[i], at, errors, path);
      path.pop();
    }
  } else if (v && typeof v === 'object') {
    for (const k in v) {
      path.push(k);
      checkExpressions((v as Record<string, unknown>)[k], at, errors, path);
      path.pop();
    }
  }
}

function schemaError(message: string): SpecgateError {
  return new SpecgateError('SG_SUITE_SCHEMA', message);
}
function unknownName(message: string): SpecgateError {
  return new SpecgateError('SG_SUITE_UNKNOWN', message);
}

function collect(e: unknown, errors: SpecgateError[]): void {
  if (e instanceof SpecgateErrorList) errors.push(...e.errors);
  else if (e instanceof SpecgateError) errors.push(e);
  else throw e;
}

/** A file as messages name it: relative to `cwd` when it is under it. */
export function display(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel.startsWith('..') ? file : rel;
}
