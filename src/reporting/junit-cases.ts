/**
 * Maps results to JUnit test suites and test cases (DESIGN "Verdicts and reports"): per
 * suite, one testsuite of cases and one of requirements, where each requirement is a
 * testcase. Kept apart from the XML writing so the mapping reads as a table of rules.
 */
import { blockedWords, rootCauses, type RootFailure } from './root-causes.js';
import type { CaseResult, RequirementVerdict, RunResult, SuiteResult } from '../engine/model.js';
import { describeCaseFailures, describeFailure, requirementLookup, type RequirementLookup } from './failure-text.js';
import { BODY_CAP, NOT_APPLICABLE, NOT_SELECTED, oneLine, skipText, truncate } from './text.js';

/** The non-passing child of a `<testcase>`. */
export interface JUnitOutcome {
  tag: 'failure' | 'error' | 'skipped';
  message: string;
  type?: string;
  body?: string;
}

/** One `<testcase>` before serialization. */
export interface JUnitCase {
  name: string;
  classname: string;
  durationMs?: number;
  outcome?: JUnitOutcome;
}

/** One `<testsuite>` before serialization. */
export interface JUnitSuite {
  name: string;
  durationMs: number;
  timestamp: string;
  properties: [string, string][];
  cases: JUnitCase[];
}

/** The stale-baseline wording, shared by cases and requirements. */
export const STALE_MESSAGE = 'listed in the baseline as expected to fail, but it passes: remove it from the baseline';

function caseName(c: CaseResult): string {
  return c.requirements.length > 0 ? `${c.id} [${c.requirements.join(', ')}]` : c.id;
}

function caseOutcome(c: CaseResult, lookup: RequirementLookup): JUnitOutcome | undefined {
  const first = c.failures[0];
  const summary = first ? `${first.requirement}: ${first.message}` : (c.reason ?? c.outcome);
  const more = c.failures.length > 1 ? ` (+${c.failures.length - 1} more)` : '';
  switch (c.outcome) {
    case 'passed':
      // The baseline expects a failure the target no longer shows: the gate must notice.
      return c.baseline === 'stale' ? { tag: 'failure', type: 'stale-baseline', message: STALE_MESSAGE } : undefined;
    case 'failed':
      if (c.baseline === 'expected-failure') {
        // Known and accepted failure: visible, but not a red build.
        return { tag: 'skipped', message: oneLine(`expected failure (baseline): ${summary}`), body: describeCaseFailures(c, lookup) };
      }
      return {
        tag: 'failure',
        type: first?.requirement ?? c.requirements[0] ?? 'failure',
        message: oneLine(summary + more),
        body: describeCaseFailures(c, lookup),
      };
    case 'errored':
      return { tag: 'error', type: c.errorCode ?? 'error', message: oneLine(c.reason ?? 'errored'), body: describeCaseFailures(c, lookup) };
    case 'skipped':
      return { tag: 'skipped', message: oneLine(skipText(c)) };
  }
}

function requirementOutcome(v: RequirementVerdict, suite: SuiteResult, lookup: RequirementLookup): JUnitOutcome | undefined {
  const why = v.reason ?? v.baseline?.reason ?? '';
  switch (v.status) {
    case 'passed':
      return v.stale ? { tag: 'failure', type: 'stale-baseline', message: STALE_MESSAGE } : undefined;
    case 'untested':
      return { tag: 'skipped', message: oneLine(`untested: ${why || 'no case covers it'}`) };
    case 'blocked':
      // not judged: a rule it rests on failed (named first), never a failure of its own
      return { tag: 'skipped', message: oneLine(why.startsWith('blocked by') ? why : `blocked by ${(v.blockedBy ?? []).join(', ')}: ${why}`) };
    case 'excluded':
      return { tag: 'skipped', message: oneLine(`excluded: ${why}`) };
    case 'not-applicable':
      // neither a failure nor a gap: skipped, with the reason it does not apply to this run
      return { tag: 'skipped', message: oneLine(`${NOT_APPLICABLE}: ${why || 'it does not apply to this run'}`) };
    case 'not-selected':
      // kept in the list (every requirement of the catalog is there), skipped: the run was not asked to judge it
      return { tag: 'skipped', message: oneLine(`${NOT_SELECTED}: ${why || "outside this run's selection"}`) };
    case 'expected-failure':
      return { tag: 'skipped', message: oneLine(`expected failure (baseline): ${why}`) };
    case 'failed':
      return requirementFailure(v, suite, lookup);
  }
}

function requirementFailure(v: RequirementVerdict, suite: SuiteResult, lookup: RequirementLookup): JUnitOutcome {
  // The verdict's failures do not say which case produced them; the cases do.
  const failing = suite.cases.filter((c) => c.outcome === 'failed' && c.failures.some((f) => f.requirement === v.id));
  const ids = failing.map((c) => c.id);
  const lines = [`failed by ${ids.length > 0 ? ids.join(', ') : 'its covering cases'}`];
  for (const c of failing) {
    for (const f of c.failures.filter((x) => x.requirement === v.id)) lines.push(`- ${c.id}: ${f.message}`);
  }
  const info = lookup(suite.name, v.id);
  const details = v.failures.map((f) => describeFailure(f, info));
  return {
    tag: 'failure',
    type: v.level,
    message: oneLine(`${v.id} failed by ${ids.length > 0 ? ids.join(', ') : `${v.failures.length} failure(s)`}`),
    body: truncate([lines.join('\n'), ...details].join('\n\n'), BODY_CAP),
  };
}

function suiteProperties(run: RunResult, suite: SuiteResult): [string, string][] {
  const props = new Map<string, string>([
    ['target', suite.target],
    ['seed', String(run.seed)],
    ['strict', String(run.strict)],
    ['stricter', String(run.stricter ?? false)],
    ['startedAt', run.startedAt],
    // junit-10.xsd allows no attribute for it: an interrupted run says so as a property
    ...(run.interrupted ? [['interrupted', run.interrupted.signal] as [string, string]] : []),
  ]);
  // The engine's own values win over same-named suite properties: they are authoritative.
  for (const [k, v] of Object.entries(suite.properties)) if (!props.has(k)) props.set(k, v);
  return [...props];
}

/**
 * The root failures of a suite as properties of its requirements testsuite (a testcase has no
 * properties): one line each, the requirement, what it blocks and the command that replays it.
 */
function rootProperties(roots: readonly RootFailure[]): [string, string][] {
  if (!roots.length) return [];
  const lines = roots.map((r) => `${r.verdict.id} (${r.verdict.level}${r.gating ? '' : ', not gating'})${r.blocks.length ? `: ${blockedWords(r.blocks, 50)}` : ''}${r.replay ? `; replay: ${r.replay}` : ''}`);
  return [['rootFailures', lines.join('\n')]];
}

/** All JUnit test suites for a run: `<suite>` then `<suite>.requirements`, suite by suite. */
export function junitSuites(run: RunResult): JUnitSuite[] {
  const lookup = requirementLookup(run);
  const { roots } = rootCauses(run);
  const out: JUnitSuite[] = [];
  for (const suite of run.suites) {
    const classname = `specgate.${suite.name}`;
    const cases: JUnitCase[] = suite.cases.map((c) => ({
      name: caseName(c),
      classname,
      durationMs: c.durationMs,
      outcome: caseOutcome(c, lookup),
    }));
    if (suite.error) {
      cases.unshift({
        name: `${suite.name} (suite setup)`,
        classname,
        outcome: { tag: 'error', type: suite.error.code, message: oneLine(suite.error.message), body: truncate(suite.error.message, BODY_CAP) },
      });
    }
    const props = suiteProperties(run, suite);
    out.push({ name: suite.name, durationMs: suite.durationMs, timestamp: run.startedAt, properties: props, cases });

    const durations = new Map(suite.cases.map((c) => [c.id, c.durationMs]));
    out.push({
      name: `${suite.name}.requirements`,
      durationMs: 0,
      timestamp: run.startedAt,
      properties: [...props, ...rootProperties(roots.filter((r) => r.suite === suite.name))],
      cases: suite.requirements.map((v) => ({
        name: `${v.id} (${v.level})`,
        classname: `${classname}.requirements`,
        durationMs: v.cases.reduce((sum, id) => sum + (durations.get(id) ?? 0), 0),
        outcome: requirementOutcome(v, suite, lookup),
      })),
    });
  }
  return out;
}
