import type { Baseline } from './baseline.js';
import type { BaselineEntry, CaseResult, Gating, Interruption, Level, LoadedSuite, RequirementVerdict, RunSummary, SuiteResult } from './model.js';
import { INTERRUPTED, INTERRUPTED_RUNNING } from './runtime/run-case.js';
import { otherSideReason } from './sides.js';

/**
 * Per-requirement verdicts of one suite from its case results:
 * failed when a failure is attributed to it, passed when a covering case judged it (see
 * {@link judged}) and none errored, not applicable when every covering case ended not
 * applicable (`ctx.notApplicable`), otherwise untested (with why); excluded from the catalog;
 * not applicable when it binds a side the run does not judge (`sides`, from `--side`);
 * expected-failure and stale from the baseline (case results already carry their own baseline status).
 * @param sides the sides this run judges, when it judges only some; absent: every side.
 */
export function requirementVerdicts(suite: LoadedSuite, results: CaseResult[], baseline: Baseline, sides?: readonly string[]): RequirementVerdict[] {
  return suite.requirements.map((req) => {
    const covering = results.filter((r) => r.requirements.includes(req.id));
    const failures = results.flatMap((r) => r.failures.filter((f) => f.requirement === req.id));
    const failingCases = results.filter((r) => r.failures.some((f) => f.requirement === req.id));
    const v: RequirementVerdict = {
      id: req.id,
      suite: suite.name,
      level: req.level,
      text: req.text,
      source: req.source,
      status: 'untested',
      ...(req.side !== undefined ? { side: req.side } : {}),
      cases: covering.map((r) => r.id),
      failures,
      errored: covering.filter((r) => r.outcome === 'errored').length,
      skipped: covering.filter((r) => r.outcome === 'skipped').length,
    };
    const entry = baseline.requirement(req.id);
    const inCase = (r: CaseResult): BaselineEntry | undefined => baseline.caseRequirement(suite.name, r.id, req.id);
    if (req.excluded) return { ...v, status: 'excluded', reason: req.excluded };
    // the other side's cases did not run: nothing about this requirement was asked of the target
    if (sides && req.side !== undefined && !sides.includes(req.side)) return { ...v, status: 'not-applicable', reason: otherSideReason(sides) };
    if (failures.length) {
      const allCasesListed = failingCases.every((r) => r.baseline === 'expected-failure' || inCase(r));
      if (entry || allCasesListed) return { ...v, status: 'expected-failure', reason: entry?.reason ?? listedReason(failingCases, inCase), ...(entry ? { baseline: entry } : {}) };
      return { ...v, status: 'failed' };
    }
    const passed = covering.some((r) => judged(r, req.id));
    if (passed && v.errored === 0) {
      if (entry) return { ...v, status: 'passed', stale: true, baseline: entry, reason: 'listed in the baseline as expected to fail, but it passes' };
      const staleInCase = covering.find((r) => inCase(r) && judged(r, req.id));
      if (staleInCase) return { ...v, status: 'passed', stale: true, baseline: inCase(staleInCase) as BaselineEntry, reason: `listed in the baseline as expected to fail in case ${staleInCase.id}, but it passes there` };
      return { ...v, status: 'passed' };
    }
    const notApplicable = notApplicableReason(covering);
    if (notApplicable !== undefined) return { ...v, status: 'not-applicable', reason: notApplicable };
    return { ...v, reason: untestedReason(covering) };
  });
}

/**
 * Why a requirement does not apply, when every case covering it ended not applicable; any
 * other covering case (skipped for another reason, errored) could have judged it, so then it
 * is untested instead.
 */
function notApplicableReason(covering: CaseResult[]): string | undefined {
  if (!covering.length || !covering.every((r) => r.outcome === 'skipped' && r.notApplicable === true)) return undefined;
  const reasons = [...new Set(covering.map((r) => r.reason ?? '').filter((x) => x !== ''))];
  return reasons.length ? reasons.join('; ') : 'it does not apply to this target';
}

/**
 * Whether a case checked `requirement` to its end: it passed, or it failed only other
 * requirements of its own. Expectations and typed checks record a failure and go on, so a case
 * that failed on one requirement still checked the rest; one that ended on a fault did not.
 */
export function judged(r: CaseResult, requirement: string): boolean {
  if (r.outcome === 'passed') return true;
  return r.outcome === 'failed' && r.errorCode === undefined && !r.failures.some((f) => f.requirement === requirement);
}

/** Why every failure of a requirement is expected: the reasons of the entries naming it in its failing cases. */
function listedReason(failingCases: CaseResult[], inCase: (r: CaseResult) => BaselineEntry | undefined): string {
  const reasons = failingCases.map((r) => inCase(r)?.reason).filter((x): x is string => x !== undefined);
  if (reasons.length === 0 || reasons.length < failingCases.length) return 'every failing case is listed in the baseline';
  return [...new Set(reasons)].join('; ');
}

/**
 * Entries `<suite>/<case-id>:<REQ>` whose case judged the requirement and did not fail it: the
 * deviation they expect is gone, whatever other cases say about the requirement.
 */
function staleCaseRequirements(suites: SuiteResult[], baseline: Baseline): BaselineEntry[] {
  return suites.flatMap((s) =>
    s.cases.flatMap((c) => c.requirements.flatMap((req) => {
      const e = baseline.caseRequirement(s.name, c.id, req);
      return e && judged(c, req) ? [e] : [];
    })),
  );
}

function untestedReason(covering: CaseResult[]): string {
  if (!covering.length) return 'no case covers it';
  const errored = covering.find((r) => r.outcome === 'errored');
  if (errored) return `case ${errored.id} errored: ${errored.reason ?? 'unknown fault'}`;
  // a case that could have judged it says more than one that found it does not apply
  const skipped = covering.find((r) => r.outcome === 'skipped' && !r.notApplicable) ?? covering.find((r) => r.outcome === 'skipped');
  if (skipped) return `skipped: ${skipped.reason ?? ''}`;
  return 'no covering case ran';
}

/** The gating from the two flags: `--stricter` implies `--strict`. */
export function gatingOf(strict: boolean, stricter = false): Gating {
  return { strict: strict || stricter, stricter };
}

/** Whether a failed requirement at this level fails the gate. */
export function gates(level: Level, gating: Gating): boolean {
  if (level === 'MUST') return true;
  if (level === 'SHOULD') return gating.strict;
  if (level === 'STRICTER') return gating.stricter;
  return false;
}

/** The levels that gate, in words, for verdict lines and reports. */
export function gatingWords(gating: Gating): string {
  if (gating.stricter) return 'MUST, SHOULD and STRICTER';
  return gating.strict ? 'MUST and SHOULD' : 'MUST';
}

/**
 * The summary of an interrupted run: exit code 130 (SIGINT) or 143 (SIGTERM) whatever the
 * cases that ran found, since a run that did not finish is no verdict on the target; the
 * verdict line says so first, then what the cases that finished showed.
 */
export function interruptedSummary(summary: RunSummary, interruption: Interruption, suites: SuiteResult[]): RunSummary {
  const cases = suites.flatMap((s) => s.cases);
  const notStarted = cases.filter((c) => c.reason === INTERRUPTED).length;
  const stopped = cases.filter((c) => c.reason === INTERRUPTED_RUNNING).length;
  const { passed, failed, errored } = summary.cases;
  return {
    ...summary,
    exitCode: interruption.signal === 'SIGTERM' ? 143 : 130,
    verdict: `interrupted by ${interruption.signal}: ${notStarted} case(s) not started and ${stopped} stopped while running, so this is no verdict; the cases that finished: ${passed} passed, ${failed} failed, ${errored} errored`,
  };
}

/**
 * The run's summary and exit code: 1 for gating conformance failures, stale or expired
 * baseline entries; otherwise 3 when a case errored or a suite could not start; else 0.
 */
export function summarize(suites: SuiteResult[], gating: Gating, baseline: Baseline): RunSummary {
  const requirements = suites.flatMap((s) => s.requirements);
  const cases = suites.flatMap((s) => s.cases);
  const count = <K extends string>(keys: readonly K[], pick: (k: K) => number): Record<K, number> =>
    Object.fromEntries(keys.map((k) => [k, pick(k)])) as Record<K, number>;
  const caseCounts = count(['passed', 'failed', 'errored', 'skipped'] as const, (k) => cases.filter((c) => c.outcome === k).length);
  const reqCounts = count(['passed', 'failed', 'untested', 'excluded', 'expected-failure', 'not-applicable'] as const, (k) => requirements.filter((r) => r.status === k).length);
  const gatingFailures = requirements.filter((r) => r.status === 'failed' && gates(r.level, gating)).length;
  const staleReqs = requirements.filter((r) => r.stale && r.baseline).map((r) => r.baseline as BaselineEntry);
  const staleCases = suites.flatMap((s) => s.cases.filter((c) => c.baseline === 'stale').map((c) => baseline.case(s.name, c.id)));
  const staleEntries = [...staleReqs, ...staleCases.filter((e): e is BaselineEntry => e !== undefined), ...staleCaseRequirements(suites, baseline)];
  // A requirement verdict may carry the same stale entry its case does: count each entry once.
  const staleBaseline = staleEntries.filter((e, i) => staleEntries.findIndex((x) => x.id === e.id) === i);
  const expiredBaseline = baseline.expired();
  const faults = caseCounts.errored + suites.filter((s) => s.error).length;
  let exitCode: RunSummary['exitCode'] = 0;
  const reasons: string[] = [];
  if (gatingFailures) reasons.push(`${gatingFailures} requirement(s) failed at the gating level (${gatingWords(gating)})`);
  if (staleBaseline.length) reasons.push(`${staleBaseline.length} baseline entr${staleBaseline.length === 1 ? 'y is' : 'ies are'} stale (now passing: remove them)`);
  if (expiredBaseline.length) reasons.push(`${expiredBaseline.length} baseline entr${expiredBaseline.length === 1 ? 'y has' : 'ies have'} expired`);
  if (reasons.length) exitCode = 1;
  else if (faults) {
    exitCode = 3;
    reasons.push(`${faults} case(s) or suite(s) could not be judged because of a harness or target fault`);
  }
  const verdict =
    exitCode === 0
      ? `conformant at the gating level (${gatingWords(gating)})`
      : exitCode === 3
        ? `not judged: ${reasons.join('; ')}`
        : `not conformant: ${reasons.join('; ')}`;
  return {
    cases: { ...caseCounts, total: cases.length },
    requirements: { ...reqCounts, total: requirements.length, stale: staleReqs.length },
    gatingFailures,
    staleBaseline,
    expiredBaseline,
    exitCode,
    verdict,
  };
}
