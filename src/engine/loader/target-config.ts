import { SpecgateError } from '../../errors.js';
import { Redactor } from '../../targets/redact.js';
import { resolveDeep, resolveVariables } from '../expressions.js';
import type { CaseDef, LoadedSuite, SourceLocation } from '../model.js';
import type { Registry } from '../registry.js';
import type { TargetChoice } from '../target-setup.js';
import { formatLocation } from './yaml-source.js';
import { nearestNames } from '../near-names.js';
import { safeReferences, targetNeeds, type Needs, type Use } from './target-needs.js';
import { PLACEHOLDER, declaredVars, isSet, neededBy, secretEnvName, someOf, type DeclaredVar } from '../../targets/declared-vars.js';

/**
 * What a target profile must give the cases that will run, checked after loading and before
 * anything starts, so that a profile that cannot work is a configuration error (exit 2) naming
 * the profile key, not a run whose every case errors: every target variable the cases read is
 * set, every variable used as the base of a request (a URL's head, an API table's base) is an
 * absolute http(s) URL, and a user agent (with each scripted action) is there when cases drive
 * one. Cases that will be skipped anyway (skip:, needs: unmet, time-bound with no way to let
 * time pass) ask for nothing. Typed checks read variables in their code, out of sight here; they
 * say what is missing when they run.
 */
export function checkTargetConfig(selected: { suite: LoadedSuite; cases: CaseDef[] }[], targets: Record<string, TargetChoice | undefined>, registry: Registry, opts: { includeSlow: boolean }): SpecgateError[] {
  const errors: SpecgateError[] = [];
  for (const { suite, cases } of selected) {
    const choice = targets[suite.name];
    if (!choice?.section || choice.recording) continue;
    errors.push(...checkSuite(suite, cases, choice, registry, opts));
  }
  return errors;
}

function checkSuite(suite: LoadedSuite, cases: CaseDef[], choice: TargetChoice, registry: Registry, opts: { includeSlow: boolean }): SpecgateError[] {
  const section = choice.section;
  if (!section) return [];
  const vars = resolveVariables(section.vars ?? {});
  const declared = suite.vars ? new Set(Object.keys(suite.vars)) : undefined;
  const needs = targetNeeds(cases, declared, registry, vars, Boolean(section.clock) || opts.includeSlow);
  const redactor = new Redactor([...choice.secrets, ...(section.secrets ?? [])]);
  const show = (v: unknown): string => redactor.redactString(JSON.stringify(v) ?? String(v));
  const where = (loc: SourceLocation | undefined): string => (loc ? `${formatLocation(loc)}: ` : `the target (${choice.label}): `);
  const errors: SpecgateError[] = [];
  const missing = (v: unknown): boolean => v === undefined || v === null;

  const unset = requiredUnset(suite, cases, vars);
  if (unset.length) errors.push(requiredError(suite, unset, where(section.locations?.vars ?? section.location)));
  const unfilled = placeholders(suite.name, section.vars ?? {}, (name) => where(section.locations?.var[name] ?? section.locations?.vars ?? section.location));
  errors.push(...unfilled.map((u) => u.error));
  // one message per variable: a placeholder or an unset required one is not also a bad URL or an unset read
  const reported = new Set([...unset.map((v) => v.name), ...unfilled.map((u) => u.name)]);

  for (const [name, uses] of needs.reads) {
    if (!missing(vars[name]) || reported.has(name)) continue;
    const what = suite.vars?.[name]?.description;
    errors.push(new SpecgateError(
      'SG_CONFIG',
      `${where(section.locations?.vars ?? section.location)}suites.${suite.name}.vars sets no ${name}, which ${usedBy(uses, 'reads', 'read it too')}; set vars.${name}${what ? ` (${what})` : ''} in the target profile, or leave those cases out with --case`,
      { suite: suite.name, variable: name },
    ));
  }

  // a profile variable the suite does not declare, close to one it does, is a typo: the case
  // reading the declared one would otherwise run on a default or be skipped, and test less
  if (declared) {
    for (const name of Object.keys(section.vars ?? {})) {
      if (declared.has(name)) continue;
      const near = nearestNames(name, [...declared]);
      if (!near.length) continue;
      const loc = section.locations?.var[name] ?? section.locations?.vars ?? section.location;
      errors.push(new SpecgateError(
        'SG_CONFIG',
        `${where(loc)}vars.${name} is not a variable of suite ${suite.name}; did you mean ${near.map((n) => `vars.${n}`).join(' or ')}? (\`specgate list --suite ${suite.name} --vars\` lists them)`,
        { suite: suite.name, variable: name, suggestions: near },
      ));
    }
  }

  const badBase = (name: string, how: string): void => {
    if (reported.has(name)) return;
    const value = vars[name];
    if (missing(value) || isHttpUrl(value) || (typeof value === 'string' && value.includes('${'))) return;
    const loc = section.locations?.var[name];
    const head = loc ? `${formatLocation(loc)}: vars.${name} is ${show(value)}` : `the target (${choice.label}) sets ${name} to ${show(value)}`;
    errors.push(new SpecgateError('SG_CONFIG', `${head}, which is not an absolute http(s) URL, yet ${how}; give the base URL of the target, such as https://${name.replace(/_?url$/i, '') || 'api'}.example.test`, { suite: suite.name, variable: name }));
  };
  for (const [name, uses] of needs.bases) badBase(name, `it is the base of requests (${usedBy(uses, 'sends', 'send them too', 'at')})`);

  if (needs.api && suite.api) {
    const table = suite.api;
    const expressions = [table.base, ...table.operations.map((o) => o.base).filter((b): b is string => typeof b === 'string'), ...(table.auth ? [table.auth.value] : [])];
    for (const expr of new Set(expressions)) {
      for (const name of safeReferences(expr)) {
        if (missing(vars[name]) && !reported.has(name))
          errors.push(new SpecgateError(
            'SG_CONFIG',
            `${where(section.locations?.vars ?? section.location)}suites.${suite.name}.vars sets no ${name}, which the API table ${table.file} reads (${JSON.stringify(expr)}); set vars.${name} in the target profile`,
            { suite: suite.name, variable: name },
          ));
      }
    }
    for (const base of new Set([table.base, ...table.operations.map((o) => o.base).filter((b): b is string => typeof b === 'string')])) {
      const names = safeReferences(base);
      if (names.some((n) => missing(vars[n]))) continue;
      let resolved: unknown;
      try {
        resolved = resolveDeep(base, { vars });
      } catch {
        continue;
      }
      if (isHttpUrl(resolved)) continue;
      const culprit = names.find((n) => !isHttpUrl(vars[n])) ?? names[0];
      if (culprit !== undefined) badBase(culprit, `the base of the API table ${table.file} (${JSON.stringify(base)}) is made of it`);
    }
  }

  if (needs.actions.size) {
    const agent = section.agent;
    if (!agent) {
      const all = [...needs.actions.values()].flat();
      const first = all[0];
      const names = [...needs.actions.keys()].map((a) => JSON.stringify(a)).join(', ');
      if (first)
        errors.push(new SpecgateError(
          'SG_CONFIG',
          `${where(section.location)}suites.${suite.name} has no agent:, and case ${first.caseId} needs a user agent to ${JSON.stringify(firstAction(needs, first))} (${formatLocation(first.at)})${countOthers(new Set(all.map((u) => u.caseId)).size - 1)}; the cases perform ${names}; add agent: to the target profile (mode: scripted with the actions the cases use, or mode: interactive), or leave those cases out with --case`,
          { suite: suite.name },
        ));
    } else if (agent.mode === 'scripted' || agent.mode === 'browser') {
      for (const [action, uses] of needs.actions) {
        if (Object.prototype.hasOwnProperty.call(agent.actions, action)) continue;
        const steps = agent.mode === 'browser' ? 'the page steps that make a user' : 'the steps that make a user';
        errors.push(new SpecgateError(
          'SG_CONFIG',
          `${where(section.locations?.agent ?? section.location)}the ${agent.mode} agent of suites.${suite.name} has no ${JSON.stringify(action)} action, which ${usedBy(uses, 'needs', 'need it too')}; add it under agent.actions (${steps} ${action} on your side)`,
          { suite: suite.name, action },
        ));
      }
    }
  }
  return errors;
}

/**
 * The required variables the target leaves unset that the selected cases need. A required
 * variable no case visibly needs (typed checks read it in their code) is needed by any run.
 */
function requiredUnset(suite: LoadedSuite, cases: CaseDef[], vars: Record<string, unknown>): (DeclaredVar & { selected: string[] })[] {
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
function requiredError(suite: LoadedSuite, unset: (DeclaredVar & { selected: string[] })[], where: string): SpecgateError {
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
function placeholders(suite: string, raw: Record<string, unknown>, where: (name: string) => string): { name: string; error: SpecgateError }[] {
  const holds = (v: unknown): boolean =>
    typeof v === 'string' ? v.includes(PLACEHOLDER) : Array.isArray(v) ? v.some(holds) : v !== null && typeof v === 'object' ? Object.values(v).some(holds) : false;
  return Object.entries(raw)
    .filter(([, v]) => holds(v))
    .map(([name]) => ({
      name,
      error: new SpecgateError('SG_CONFIG', `${where(name)}vars.${name} of suite ${suite} is still ${JSON.stringify(PLACEHOLDER)}: put the target's value there, or delete the line when the variable is optional`, { suite, variable: name }),
    }));
}

/** "case X reads (file:line:col), as do 3 more cases" and its variants. */
function usedBy(uses: Use[], verb: string, others: string, prep?: string): string {
  const first = uses[0];
  if (!first) return '';
  const ids = new Set(uses.map((u) => u.caseId));
  const place = formatLocation(first.at);
  const lead = prep ? `case ${first.caseId} ${prep} ${place}` : `case ${first.caseId} ${verb} (${place})`;
  return ids.size > 1 ? `${lead}, and ${ids.size - 1} more case${ids.size === 2 ? '' : 's'} ${others}` : lead;
}

function countOthers(n: number): string {
  return n > 0 ? `, as do ${n} more case${n === 1 ? '' : 's'}` : '';
}

function firstAction(needs: Needs, use: Use): string {
  for (const [action, uses] of needs.actions) if (uses.includes(use)) return action;
  return '';
}

function isHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

