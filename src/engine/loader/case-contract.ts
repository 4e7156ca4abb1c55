import { SpecgateError } from '../../errors.js';
import { argProblems } from '../checks/args.js';
import type { CaseDef, Step } from '../model.js';
import type { SuiteNames } from './suite-names.js';

type At = (stepIndex: number, path: (string | number)[], key?: boolean) => string;

/**
 * Checks a case against the contracts of the typed checks it calls, before anything runs:
 * every `with:` against the check's argument schema, every `requirement:` argument against
 * the case's requirements and the check's declared judges, and that each requirement the case
 * lists is judged by some step (a requirement nothing judges could only ever pass).
 */
export function checkCaseContracts(c: CaseDef, registry: SuiteNames, at: At, errors: SpecgateError[]): void {
  const judged = new Set<string>();
  for (let j = 0; j < c.steps.length; j++) for (const id of stepJudges(c.steps[j] as Step, c, registry, j, at, errors)) judged.add(id);
  // a step attributed to a requirement the case does not list already says what is wrong
  for (const id of judged) if (!c.requirements.includes(id)) return;
  if (c.skip || c.steps.length === 0) return;
  const unjudged = c.requirements.filter((id) => !judged.has(id));
  if (unjudged.length)
    errors.push(
      new SpecgateError(
        'SG_SUITE_SCHEMA',
        `${at(-1, ['requirements'])}: no step of case "${c.id}" judges ${unjudged.join(', ')}: add an expect: (or a check that judges it), or drop it from requirements`,
      ),
    );
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * The requirements one step judges (an attribution outside the case included, so the caller can
 * tell); contract problems go to `errors`. The list is only read: it may be the case's own.
 */
function stepJudges(step: Step, c: CaseDef, registry: SuiteNames, j: number, at: At, errors: SpecgateError[]): readonly string[] {
  if ('check' in step) {
    if (!registry.has('check', step.check)) return c.requirements; // reported as an unknown name elsewhere
    const check = registry.check(step.check);
    const args = step.with ?? {};
    for (const p of argProblems(check, args, true)) errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${at(j, ['with', ...p.path], p.key)}: ${step.check}: ${p.message}`));
    const named = typeof args['requirement'] === 'string' && !args['requirement'].includes('${') ? args['requirement'] : undefined;
    const declared = check.judges === 'case' ? c.requirements : check.judges;
    if (named !== undefined) {
      if (!c.requirements.includes(named)) {
        errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${at(j, ['with', 'requirement'])}: "${named}" is not one of this case's requirements (${c.requirements.join(', ')})`));
        return [named];
      }
      if (!declared.includes(named)) {
        errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${at(j, ['with', 'requirement'])}: ${step.check} cannot judge "${named}"; it judges ${declared.join(', ')}`));
        return NONE;
      }
      return [named];
    }
    if (check.judges === 'case') return c.requirements;
    const mine = c.requirements.filter((id) => declared.includes(id));
    return mine;
  }
  const byExpect = 'expect' in step ? expectJudges(step.expect as { requirement?: string } | undefined, c) : NONE;
  const byUntil = typeof step.repeat === 'object' && step.repeat.until ? c.requirements : NONE;
  if (byUntil === NONE) return byExpect;
  return byExpect === NONE ? byUntil : [...byExpect, ...byUntil];
}

/** An expectation judges its `requirement:`, or every requirement of the case; an empty one judges none. */
function expectJudges(e: { requirement?: string } | undefined, c: CaseDef): readonly string[] {
  if (!e || !hasKeys(e)) return NONE;
  return e.requirement ? [e.requirement] : c.requirements;
}

function hasKeys(o: object): boolean {
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) return true;
  return false;
}
