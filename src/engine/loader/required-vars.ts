import { SpecgateError } from '../../errors.js';
import type { CaseDef, LoadedSuite } from '../model.js';
import { PLACEHOLDER, declaredVars, isSet, neededBy, secretEnvName, someOf, type DeclaredVar } from '../../targets/declared-vars.js';

/** A required variable the target leaves unset, with the selected cases that need it. */
export type UnsetVar = DeclaredVar & { selected: string[] };

/**
 * The required variables the target leaves unset that the selected cases need. A required
 * variable no case visibly needs (typed checks read it in their code) is needed by any run.
 */
export function requiredUnset(suite: LoadedSuite, cases: CaseDef[], vars: Record<string, unknown>): UnsetVar[] {
  // deriving who needs each variable walks every case of the suite: only when one is required and unset
  if (!Object.entries(suite.vars ?? {}).some(([name, d]) => d.required === true && !isSet(vars[name]))) return [];
  const running = new Set(cases.filter((c) => !c.skip && c.steps.length > 0).map((c) => c.id));
  if (!running.size) return [];
  return declaredVars(suite)
    .filter((v) => v.required && !isSet(vars[v.name]))
    .map((v) => ({ ...v, selected: neededBy(v).filter((id) => running.has(id)) }))
    .filter((v) => v.selected.length > 0 || neededBy(v).length === 0);
}

/** One message for all of a suite's unset required variables: each with the cases that need it, and the lines to add. */
export function requiredError(suite: LoadedSuite, unset: UnsetVar[], where: string): SpecgateError {
  const lines = unset.map((v) => {
    const who = v.selected.length ? `needed by ${v.selected.length} selected case${v.selected.length === 1 ? '' : 's'}: ${someOf(v.selected)}` : 'read by the suite\'s typed checks';
    return `  ${v.name} — ${v.description}; ${who}`;
  });
  const add = unset.map((v) => `  ${v.name}: ${v.secret ? `\${env:${secretEnvName(suite.name, v.name)}}` : PLACEHOLDER}${v.example !== undefined && !v.secret ? `   # e.g. ${JSON.stringify(v.example)}` : ''}`);
  const count = unset.length === 1 ? 'a required variable' : `${unset.length} required variables`;
  return new SpecgateError(
    'SG_CONFIG',
    `${where}suites.${suite.name}.vars lacks ${count}:\n${lines.join('\n')}\nadd ${unset.length === 1 ? 'it' : 'them'} under suites.${suite.name}.vars, with your values:\n${add.join('\n')}\n(\`specgate list --suite ${suite.name} --vars\` describes every variable; \`specgate init ${suite.name}\` writes a whole profile to fill in)`,
    { suite: suite.name, variables: unset.map((v) => v.name) },
  );
}

/** Variables whose value still holds the placeholder `specgate init` writes. */
export function placeholders(suite: string, raw: Record<string, unknown>, where: (name: string) => string): { name: string; error: SpecgateError }[] {
  const holds = (v: unknown): boolean =>
    typeof v === 'string' ? v.includes(PLACEHOLDER) : Array.isArray(v) ? v.some(holds) : v !== null && typeof v === 'object' ? Object.values(v).some(holds) : false;
  return Object.entries(raw)
    .filter(([, v]) => holds(v))
    .map(([name]) => ({
      name,
      error: new SpecgateError('SG_CONFIG', `${where(name)}vars.${name} of suite ${suite} is still ${JSON.stringify(PLACEHOLDER)}: put the target's value there, or delete the line when the variable is optional`, { suite, variable: name }),
    }));
}
