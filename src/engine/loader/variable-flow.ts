import { SpecgateError } from '../../errors.js';
import { checkSets } from '../checks/contract.js';
import { referencedVariables } from '../expressions.js';
import { nearestNames } from '../near-names.js';
import type { CaseDef, Step } from '../model.js';
import type { SuiteNames } from './suite-names.js';

type At = (stepIndex: number, path: (string | number)[]) => string;

/**
 * Checks that every `${var}` a case reads is set before it is read: a target variable the suite
 * declares (`suite.yaml` `vars:`), a case `vars:` entry, `case`/`oracle` in a property case, or a
 * variable an earlier step captures, sets, or (a typed check) declares in its contract's `sets`.
 * A misspelt name is then a load error at the place it is read, not an empty string at run time.
 */
export function checkVariableFlow(c: CaseDef, declared: ReadonlySet<string>, registry: SuiteNames, at: At, errors: SpecgateError[]): void {
  const known = new Set(declared);
  for (const k of Object.keys(c.vars ?? {})) known.add(k);
  if (c.property) {
    known.add('case');
    if (c.property.oracle) known.add('oracle');
  }
  reads(c.vars ?? {}, ['vars']).forEach(({ name, path }) => {
    if (!declared.has(name)) errors.push(unset(at(-1, path), name, declared));
  });
  for (const need of c.needs ?? []) if (!declared.has(need)) errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${at(-1, ['needs'])}: needs "${need}", which suite.yaml does not declare under vars:`));
  c.steps.forEach((step, j) => {
    const { capture, ...acting } = step as Step & { capture?: Record<string, string> };
    for (const { name, path } of reads(acting, [])) if (!known.has(name)) errors.push(unset(at(j, path), name, known));
    if ('set' in step) for (const k of Object.keys(step.set)) known.add(k);
    for (const k of Object.keys(capture ?? {})) known.add(k);
    if ('check' in step && registry.has('check', step.check)) {
      const check = registry.check(step.check);
      for (const k of checkSets(check, step.with ?? {})) known.add(k);
    }
  });
}

function unset(where: string, name: string, known: ReadonlySet<string>): SpecgateError {
  const near = nearestNames(name, [...known]);
  const hint = near.length ? `; did you mean ${near.map((n) => `\${${n}}`).join(' or ')}?` : '; declare it in suite.yaml vars:, set or capture it in an earlier step';
  return new SpecgateError('SG_SUITE_SCHEMA', `${where}: reads \${${name}}, which nothing sets before this step${hint}`);
}

/** Every variable read inside a value, with the path where it is written. */
function reads(v: unknown, path: (string | number)[]): { name: string; path: (string | number)[] }[] {
  if (typeof v === 'string') {
    try {
      return referencedVariables(v).map((name) => ({ name, path }));
    } catch {
      return []; // a syntax error is reported by the expression check
    }
  }
  if (Array.isArray(v)) return v.flatMap((x, i) => reads(x, [...path, i]));
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.entries(v).flatMap(([k, x]) => reads(x, [...path, k]));
  return [];
}
