import type { Baseline } from './baseline.js';
import type { BaselineEntry, BlockedBy, CaseResult, Failure, Gating, Interruption, Level, LoadedSuite, RequirementVerdict, RunSummary, Selection, SuiteResult } from './model.js';
import { INTERRUPTED, INTERRUPTED_RUNNING } from './runtime/run-case.js';
import { notSelectedReason } from './selection.js';
import { otherSideReason } from './sides.js';

/**
 * Per-requirement verdicts of one suite from its case results (blocked cases already turned so
 * by {@link blockOnAssumptions}):
 * failed when a failure is attributed to it; passed when a covering case judged it with at least
 * one observation (see {@link judged}) and none errored; blocked when a covering case could not
 * judge it because a rule it rests on failed; not applicable when every covering case ended not
 * applicable (`ctx.notApplicable`); otherwise untested (with why: nothing to judge, skipped,
 * errored); excluded from the catalog; not applicable when it binds a side the run does not
 * judge (`sides`, from `--side`); not selected when it lies outside the run's selection
 * (`--part`, `--requirement`, `--case`, a profile's `select:`) and no case of the run covers it (a case that ran judges all its
 * requirements, so what it found is never hidden); expected-failure and stale from the baseline
 * (case results already carry their own baseline status).
 * @param sides the sides this run judges, when it judges only some; absent: every side.
 * @param selection the requirements this run selected, when it selected some; absent: every one.
 */
export function requirementVerdicts(suite: LoadedSuite, results: CaseResult[], baseline: Baseline, sides?: readonly string[], selection?: Selection): RequirementVerdict[] {
  const byRequirement = casesByRequirement(results);
  const selected = selection ? new Set(selection.requirements) : undefined;
  return suite.requirements.map((req) => {
    const { covering, failures, failingCases } = byRequirement.get(req.id) ?? NO_CASES;
    const evidence = covering.reduce((sum, r) => sum + (judged(r, req.id) ? observations(r, req.id) : 0), 0);
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
      evidence,
    };
    const entry = baseline.requirement(req.id);
    const inCase = (r: CaseResult): BaselineEntry | undefined => baseline.caseRequirement(suite.name, r.id, req.id);
    if (req.excluded) return { ...v, status: 'excluded', reason: req.excluded };
    // the other side's cases did not run: nothing about this requirement was asked of the target
    if (sides && req.side !== undefined && !sides.includes(req.side)) return { ...v, status: 'not-applicable', reason: otherSideReason(sides) };
    if (selection && selected && !selected.has(req.id) && !covering.length) return { ...v, status: 'not-selected', reason: notSelectedReason(selection) };
    if (failures.length) {
      const allCasesListed = failingCases.every((r) => r.baseline === 'expected-failure' || inCase(r));
      if (entry || allCasesListed) return { ...v, status: 'expected-failure', reason: entry?.reason ?? listedReason(failingCases, inCase), ...(entry ? { baseline: entry } : {}) };
      return { ...v, status: 'failed' };
    }
    if (evidence > 0 && v.errored === 0) {
      if (entry) return { ...v, status: 'passed', stale: true, baseline: entry, reason: 'listed in the baseline as expected to fail, but it passes' };
      const staleInCase = covering.find((r) => inCase(r) && judged(r, req.id) && observations(r, req.id) > 0);
      if (staleInCase) return { ...v, status: 'passed', stale: true, baseline: inCase(staleInCase) as BaselineEntry, reason: `listed in the baseline as expected to fail in case ${staleInCase.id}, but it passes there` };
      return { ...v, status: 'passed' };
    }
    const blockers = covering.flatMap((r) => {
      const by = r.blockedBy ?? r.blocked?.[req.id];
      return by ? [{ r, by }] : [];
    });
    if (blockers.length && v.errored === 0) {
      const by = [...new Set(blockers.map((b) => b.by.requirement))];
      const first = blockers[0] as { r: CaseResult; by: BlockedBy };
      return { ...v, status: 'blocked', blockedBy: by, reason: `blocked by ${by.join(', ')}: ${first.by.message} (case ${first.r.id})` };
    }
    const notApplicable = notApplicableReason(covering);
    if (notApplicable !== undefined) return { ...v, status: 'not-applicable', reason: notApplicable };
    return { ...v, reason: untestedReason(covering, req.id) };
  });
}

/** The cases that cover a requirement, its failures and the cases that failed it, each in run order. */
interface RequirementCases {
  covering: CaseResult[];
  failures: Failure[];
  failingCases: CaseResult[];
}

const NO_CASES: RequirementCases = { covering: [], failures: [], failingCases: [] };

/**
 * Every requirement's cases, gathered in one pass over the results: looking them up per
 * requirement instead costs requirements × cases, which for a merged run of 100,000 cases over
 * a thousand requirements is minutes.
 */
function casesByRequirement(results: readonly CaseResult[]): Map<string, RequirementCases> {
  const out = new Map<string, RequirementCases>();
  const entry = (id: string): RequirementCases => {
    let e = out.get(id);
    if (!e) out.set(id, (e = { covering: [], failures: [], failingCases: [] }));
    return e;
  };
  for (const r of results) {
    // each requirement once, however often the case lists it (no Set per case: a case lists a few)
    const ids = r.requirements;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as string;
      if (ids.indexOf(id) === i) entry(id).covering.push(r);
    }
    let failed: Set<string> | undefined;
    for (const f of r.failures) {
      const e = entry(f.requirement);
      e.failures.push(f);
      if (!(failed ??= new Set()).has(f.requirement)) {
        failed.add(f.requirement);
        e.failingCases.push(r);
      }
    }
  }
  return out;
}

/**
 * Observations case `r` made of `requirement`: what it counted, or one for a result written
 * before evidence was counted (it has no `evidence` at all), which then stands as it did.
 */
function observations(r: CaseResult, requirement: string): number {
  if (r.evidence === undefined && r.noEvidence === undefined) return r.blockedBy ? 0 : 1;
  return r.evidence?.[requirement] ?? 0;
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
 * that failed on one requirement still checked the rest; one that ended on a fault did not, and
 * neither did one that stopped blocked by a rule it rests on. Whether it saw anything to judge is
 * its evidence ({@link observations}).
 */
export function judged(r: CaseResult, requirement: string): boolean {
  if (r.blockedBy || r.blocked?.[requirement]) return false;
  if (r.outcome === 'passed') return true;
  return r.outcome === 'failed' && r.errorCode === undefined && !r.failures.some((f) => f.requirement === requirement);
}

/**
 * Turns the failed cases whose assumed requirement has a root failure into blocked cases: their
 * failures are consequences of that rule, kept as `blockedFailures`, and the case is skipped,
 * blocked by it. A root failure is one from a case that is not itself blocked; where cases
 * assume each other in a cycle and all fail, no root can be told and their failures stand.
 * Returns new results for the cases it turns; the others are returned as they are.
 */
export function blockOnAssumptions(results: readonly CaseResult[]): CaseResult[] {
  const candidates = results.filter((r) => r.assumes?.length && r.failures.length && !r.blockedBy);
  if (!candidates.length) return [...results];
  const roots = new Map<CaseResult, { requirement: string; failure: Failure; caseId: string; via?: string }>();
  const blocked = new Set<CaseResult>();
  const failsIn = (requirement: string, except: CaseResult): CaseResult[] => results.filter((o) => o !== except && !o.blockedBy && o.failures.some((f) => f.requirement === requirement));
  // a root fails with nothing it assumes failing anywhere; a case is blocked when what it assumes
  // fails in a root or in a case that is itself blocked (a chain leads back to one root). This
  // grows until nothing changes; cases that assume each other in a cycle never reach a root.
  const isRoot = (d: CaseResult): boolean => !(d.assumes ?? []).some((x) => failsIn(x, d).length > 0);
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of candidates) {
      if (blocked.has(c)) continue;
      for (const requirement of c.assumes ?? []) {
        const root = failsIn(requirement, c).find((d) => blocked.has(d) || isRoot(d));
        if (!root) continue;
        const via = roots.get(root)?.requirement;
        roots.set(c, { requirement, failure: root.failures.find((f) => f.requirement === requirement) as Failure, caseId: root.id, ...(via ? { via } : {}) });
        blocked.add(c);
        changed = true;
        break;
      }
    }
  }
  return results.map((r) => {
    const root = roots.get(r);
    if (!root) return r;
    const { failures, ...rest } = r;
    return {
      ...rest,
      outcome: 'skipped' as const,
      failures: [],
      blockedFailures: failures,
      reason: `blocked by ${root.requirement}, which ${root.via ? `did not hold in case ${root.caseId} (itself blocked by ${root.via})` : `failed in case ${root.caseId}`}`,
      blockedBy: { requirement: root.requirement, message: `${root.requirement} ${root.via ? `did not hold in case ${root.caseId}, itself blocked by ${root.via}` : `failed in case ${root.caseId}`} (${root.failure.message}); this case assumes it holds`, ...(root.failure.exchange ? { exchange: root.failure.exchange } : {}) },
    };
  });
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
  // without a baseline, no entry to look up for each requirement of each case
  if (baseline.empty) return [];
  return suites.flatMap((s) =>
    s.cases.flatMap((c) => c.requirements.flatMap((req) => {
      const e = baseline.caseRequirement(s.name, c.id, req);
      return e && judged(c, req) ? [e] : [];
    })),
  );
}

function untestedReason(covering: CaseResult[], requirement: string): string {
  if (!covering.length) return 'no case covers it';
  const errored = covering.find((r) => r.outcome === 'errored');
  if (errored) return `case ${errored.id} errored: ${errored.reason ?? 'unknown fault'}`;
  // a case that looked and found nothing to judge says the most
  const empty = covering.find((r) => r.noEvidence?.[requirement] !== undefined && r.outcome !== 'errored');
  if (empty) return `nothing to judge: ${empty.noEvidence?.[requirement] ?? ''} (case ${empty.id})`;
  const looked = covering.find((r) => judged(r, requirement));
  if (looked) return `no observation judged it (case ${looked.id} ran to its end without looking at anything of it)`;
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

/** What the verdict line says of cases the target throttled past --max-wait (they judged nothing). */
function throttledWords(n: number): string {
  return `${n} case(s) throttled by the target and untested: pace the run with --rate, raise --max-wait, or lift the target's rate limit for the test client`;
}

/**
 * The run's summary and exit code: 1 for gating conformance failures, stale or expired
 * baseline entries; otherwise 3 when a case errored or a suite could not start; else 0.
 */
export function summarize(suites: SuiteResult[], gating: Gating, baseline: Baseline, requireJudged?: number): RunSummary {
  const requirements = suites.flatMap((s) => s.requirements);
  const cases = suites.flatMap((s) => s.cases);
  // counted in one pass each: a run may have hundreds of thousands of cases
  const caseCounts: Record<CaseResult['outcome'], number> = { passed: 0, failed: 0, errored: 0, skipped: 0 };
  // a value none of these (a report written by another version) is counted nowhere, as before
  for (const c of cases) if (Object.hasOwn(caseCounts, c.outcome)) caseCounts[c.outcome]++;
  const reqCounts: Record<RequirementVerdict['status'], number> = { passed: 0, failed: 0, untested: 0, blocked: 0, excluded: 0, 'expected-failure': 0, 'not-applicable': 0, 'not-selected': 0 };
  for (const r of requirements) if (Object.hasOwn(reqCounts, r.status)) reqCounts[r.status]++;
  const judgedCount = judgedFraction(requirements, gating);
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
  } else {
    const short = tooLittleJudged(judgedCount, requireJudged, gating);
    if (short) {
      exitCode = 4;
      reasons.push(short);
    }
  }
  const judgedLine = judgedWords(judgedCount, reqCounts.blocked, reqCounts.untested, reqCounts['not-selected']);
  const verdict =
    exitCode === 0
      ? `conformant at the gating level (${gatingWords(gating)}): ${judgedLine}`
      : exitCode === 3
        ? `not judged: ${reasons.join('; ')}`
        : exitCode === 4
          ? `not conformant: ${reasons.join('; ')}`
          : `not conformant: ${reasons.join('; ')}; ${judgedLine}`;
  const throttled = cases.filter((c) => c.errorCode === 'SG_TARGET_THROTTLED').length;
  return {
    cases: { ...caseCounts, total: cases.length },
    requirements: { ...reqCounts, total: requirements.length, stale: staleReqs.length },
    gatingFailures,
    judged: judgedCount,
    ...(requireJudged !== undefined ? { requireJudged } : {}),
    staleBaseline,
    expiredBaseline,
    exitCode,
    verdict: throttled ? `${verdict}; ${throttledWords(throttled)}` : verdict,
  };
}

/**
 * The requirements at the gating levels this run set out to judge (a selected case covers them,
 * not excluded, not applicable, not outside the run's selection), and how many of them it
 * judged: passed, failed, or failed as the baseline expects.
 */
export function judgedFraction(requirements: readonly RequirementVerdict[], gating: Gating): { gating: number; judged: number } {
  const inScope = requirements.filter((r) => gates(r.level, gating) && r.status !== 'excluded' && r.status !== 'not-applicable' && r.status !== 'not-selected' && r.cases.length > 0);
  return { gating: inScope.length, judged: inScope.filter((r) => r.status === 'passed' || r.status === 'failed' || r.status === 'expected-failure').length };
}

/** Why a run judged too little to be conformant (exit 4), or undefined when it judged enough. */
export function tooLittleJudged(j: { gating: number; judged: number }, requireJudged: number | undefined, gating: Gating): string | undefined {
  if (j.judged === 0) return `no requirement at the gating level (${gatingWords(gating)}) was judged${j.gating ? ` (0 of ${j.gating})` : ''}: nothing here shows the target conforms`;
  if (requireJudged !== undefined && (100 * j.judged) / j.gating < requireJudged)
    return `judged ${j.judged} of ${j.gating} gating requirements (${percent(j)}), fewer than --require-judged ${requireJudged}% asks`;
  return undefined;
}

/** "judged 120 of 130 gating requirements (92%); 4 blocked, 6 untested, 40 not selected in all". */
export function judgedWords(j: { gating: number; judged: number }, blocked: number, untested: number, notSelected = 0): string {
  const rest = [blocked ? `${blocked} blocked` : '', untested ? `${untested} untested` : '', notSelected ? `${notSelected} not selected` : ''].filter((x) => x !== '');
  return `judged ${j.judged} of ${j.gating} gating requirements (${percent(j)})${rest.length ? `; ${rest.join(', ')} in all` : ''}`;
}

function percent(j: { gating: number; judged: number }): string {
  if (j.gating === 0) return '0%';
  const p = (100 * j.judged) / j.gating;
  // never round a shortfall up to a whole: 99.6% is not 100%
  return `${j.judged < j.gating ? Math.min(99, Math.floor(p)) : 100}%`;
}
