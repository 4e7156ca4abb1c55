import { SpecgateError } from '../../errors.js';
import { Redactor } from '../../targets/redact.js';
import type { TargetSection } from '../../targets/target-section.js';
import type { ApiTable } from '../api/table.js';
import { resolveDeep, resolveVariables } from '../expressions.js';
import type { CaseDef, LoadedSuite, SourceLocation } from '../model.js';
import type { Registry } from '../registry.js';
import type { TargetChoice } from '../target-setup.js';
import { formatLocation } from './yaml-source.js';
import { nearestNames } from '../near-names.js';
import { apiTableExpressions, safeReferences, targetNeeds, type Needs, type Use } from './target-needs.js';
import { placeholders, requiredError, requiredUnset } from './required-vars.js';
import { fieldNameProblems, sentFieldNames, specFieldNames } from './target-fields.js';
import { selectProblems } from '../section-selection.js';

/**
 * What a target profile must give the cases that will run, checked after loading and before
 * anything starts, so that a profile that cannot work is a configuration error (exit 2) naming
 * the profile key, not a run whose every case errors: every target variable the cases read is
 * set, every variable used as the base of a request (a URL's head, an API table's base) is an
 * absolute http(s) URL, and a user agent (with each scripted action) is there when cases drive
 * one; a `select:` names parts and requirements the suite has. Cases that will be skipped
 * anyway (skip:, needs: unmet, time-bound with no way to let time pass) ask for nothing. Typed checks read variables in their code, out of sight here; they
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

/** One suite's target section as its checks read it, and where they report. */
interface SuiteCheck {
  suite: LoadedSuite;
  section: TargetSection;
  choice: TargetChoice;
  vars: Record<string, unknown>;
  needs: Needs;
  /** Variables already reported (a placeholder, an unset required one): one message per variable. */
  reported: Set<string>;
  errors: SpecgateError[];
  /** A value as a message shows it, secrets masked. */
  show(v: unknown): string;
  /** The head of a message about a place in the profile (or the target, when it has no place). */
  where(loc: SourceLocation | undefined): string;
}

/** Every problem of one suite's target section, in a fixed order: required and placeholder variables, reads, typos, bases, the API table, the agent. */
function checkSuite(suite: LoadedSuite, cases: CaseDef[], choice: TargetChoice, registry: Registry, opts: { includeSlow: boolean }): SpecgateError[] {
  const section = choice.section;
  if (!section) return [];
  const vars = resolveVariables(section.vars ?? {});
  const declared = suite.vars ? new Set(Object.keys(suite.vars)) : undefined;
  const broken = new Set(section.broken ?? []);
  // a clock: that breaks its rule is meant to be there: the time-bound cases it would run are counted
  const needs = targetNeeds(cases, declared, registry, vars, Boolean(section.clock) || broken.has('clock') || opts.includeSlow);
  const redactor = new Redactor([...choice.secrets, ...(section.secrets ?? [])]);
  const c: SuiteCheck = {
    suite,
    section,
    choice,
    vars,
    needs,
    reported: new Set(),
    errors: [],
    show: (v) => redactor.redactString(JSON.stringify(v) ?? String(v)),
    where: (loc) => (loc ? `${formatLocation(loc)}: ` : `the target (${choice.label}): `),
  };
  // a vars: or agent: set aside for breaking the schema is reported as that; what it lacks is judged once it is fixed
  if (!broken.has('vars')) {
    checkRequired(c, cases);
    checkReads(c);
    if (declared) checkNearNames(c, declared);
    for (const [name, uses] of needs.bases) badBase(c, name, `it is the base of requests (${usedBy(uses, 'sends', 'send them too', 'at')})`);
    if (needs.api && suite.api) checkApiTable(c, suite.api);
  }
  if (needs.actions.size && !broken.has('agent')) checkAgent(c);
  if (section.fieldNames) c.errors.push(...fieldNameProblems(suite.name, section, new Set([...specFieldNames(registry.suiteSchemas(suite.name)), ...sentFieldNames(suite.cases)]), c.where));
  if (section.select) c.errors.push(...selectProblems(suite, section.select, c.where(section.locations?.select ?? section.location)));
  return c.errors;
}

/** Reports the unset required variables (in one message) and the placeholders left in, and marks them reported. */
function checkRequired(c: SuiteCheck, cases: CaseDef[]): void {
  const { suite, section } = c;
  const unset = requiredUnset(suite, cases, c.vars);
  if (unset.length) c.errors.push(requiredError(suite, unset, c.where(section.locations?.vars ?? section.location)));
  const unfilled = placeholders(suite.name, section.vars ?? {}, (name) => c.where(section.locations?.var[name] ?? section.locations?.vars ?? section.location));
  c.errors.push(...unfilled.map((u) => u.error));
  // one message per variable: a placeholder or an unset required one is not also a bad URL or an unset read
  for (const name of [...unset.map((v) => v.name), ...unfilled.map((u) => u.name)]) c.reported.add(name);
}

/** Reports each variable the cases read that the target leaves unset. */
function checkReads(c: SuiteCheck): void {
  const { suite, section } = c;
  for (const [name, uses] of c.needs.reads) {
    if (!missing(c.vars[name]) || c.reported.has(name)) continue;
    const what = suite.vars?.[name]?.description;
    c.errors.push(new SpecgateError(
      'SG_CONFIG',
      `${c.where(section.locations?.vars ?? section.location)}suites.${suite.name}.vars sets no ${name}, which ${usedBy(uses, 'reads', 'read it too')}; set vars.${name}${what ? ` (${what})` : ''} in the target profile, or leave those cases out with --case`,
      { suite: suite.name, variable: name },
    ));
  }
}

/**
 * Reports a profile variable the suite does not declare, close to one it does: a typo, since the
 * case reading the declared one would otherwise run on a default or be skipped, and test less.
 */
function checkNearNames(c: SuiteCheck, declared: ReadonlySet<string>): void {
  const { suite, section } = c;
  for (const name of Object.keys(section.vars ?? {})) {
    if (declared.has(name)) continue;
    const near = nearestNames(name, [...declared]);
    if (!near.length) continue;
    const loc = section.locations?.var[name] ?? section.locations?.vars ?? section.location;
    c.errors.push(new SpecgateError(
      'SG_CONFIG',
      `${c.where(loc)}vars.${name} is not a variable of suite ${suite.name}; did you mean ${near.map((n) => `vars.${n}`).join(' or ')}? (\`specgate list --suite ${suite.name} --vars\` lists them)`,
      { suite: suite.name, variable: name, suggestions: near },
    ));
  }
}

/** Reports a variable used as a base URL (`how` says where) whose value is set but not an absolute http(s) URL. */
function badBase(c: SuiteCheck, name: string, how: string): void {
  if (c.reported.has(name)) return;
  const value = c.vars[name];
  if (missing(value) || isHttpUrl(value) || (typeof value === 'string' && value.includes('${'))) return;
  const loc = c.section.locations?.var[name];
  const head = loc ? `${formatLocation(loc)}: vars.${name} is ${c.show(value)}` : `the target (${c.choice.label}) sets ${name} to ${c.show(value)}`;
  c.errors.push(new SpecgateError('SG_CONFIG', `${head}, which is not an absolute http(s) URL, yet ${how}; give the base URL of the target, such as https://${name.replace(/_?url$/i, '') || 'api'}.example.test`, { suite: c.suite.name, variable: name }));
}

/**
 * Reports the variables the API table's expressions read that are unset, and a base that does
 * not make an http(s) URL: for the operations the cases that run reach (a run of one API of a
 * table that spans two asks nothing of the other's base or credentials).
 */
function checkApiTable(c: SuiteCheck, table: ApiTable): void {
  const { suite, section, vars } = c;
  const expressions = apiTableExpressions(table, c.needs.operations);
  for (const expr of expressions) {
    for (const name of safeReferences(expr)) {
      if (missing(vars[name]) && !c.reported.has(name))
        c.errors.push(new SpecgateError(
          'SG_CONFIG',
          `${c.where(section.locations?.vars ?? section.location)}suites.${suite.name}.vars sets no ${name}, which the API table ${table.file} reads (${JSON.stringify(expr)}); set vars.${name} in the target profile`,
          { suite: suite.name, variable: name },
        ));
    }
  }
  const auth = table.auth?.value;
  for (const base of expressions.filter((e) => e !== auth)) {
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
    if (culprit !== undefined) badBase(c, culprit, `the base of the API table ${table.file} (${JSON.stringify(base)}) is made of it`);
  }
}

/** Reports a missing agent when cases perform user-agent actions, and each action a scripted or browser agent lacks. */
function checkAgent(c: SuiteCheck): void {
  const { suite, section, needs } = c;
  const agent = section.agent;
  if (!agent) {
    const all = [...needs.actions.values()].flat();
    const first = all[0];
    const names = [...needs.actions.keys()].map((a) => JSON.stringify(a)).join(', ');
    if (first)
      c.errors.push(new SpecgateError(
        'SG_CONFIG',
        `${c.where(section.location)}suites.${suite.name} has no agent:, and case ${first.caseId} needs a user agent to ${JSON.stringify(firstAction(needs, first))} (${formatLocation(first.at)})${countOthers(new Set(all.map((u) => u.caseId)).size - 1)}; the cases perform ${names}; add agent: to the target profile (mode: scripted with the actions the cases use, or mode: interactive), or leave those cases out with --case`,
        { suite: suite.name },
      ));
  } else if (agent.mode === 'scripted' || agent.mode === 'browser') {
    for (const [action, uses] of needs.actions) {
      if (Object.prototype.hasOwnProperty.call(agent.actions, action)) continue;
      const steps = agent.mode === 'browser' ? 'the page steps that make a user' : 'the steps that make a user';
      c.errors.push(new SpecgateError(
        'SG_CONFIG',
        `${c.where(section.locations?.agent ?? section.location)}the ${agent.mode} agent of suites.${suite.name} has no ${JSON.stringify(action)} action, which ${usedBy(uses, 'needs', 'need it too')}; add it under agent.actions (${steps} ${action} on your side)`,
        { suite: suite.name, action },
      ));
    }
  }
}

/** A variable the target leaves unset. */
function missing(v: unknown): boolean {
  return v === undefined || v === null;
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

/** ", as do N more cases" for N other cases; empty for none. */
function countOthers(n: number): string {
  return n > 0 ? `, as do ${n} more case${n === 1 ? '' : 's'}` : '';
}

/** The action whose uses include `use`. */
function firstAction(needs: Needs, use: Use): string {
  for (const [action, uses] of needs.actions) if (uses.includes(use)) return action;
  return '';
}

/** Whether a value is an absolute http(s) URL. */
function isHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

