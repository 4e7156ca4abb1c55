/**
 * `specgate merge <results.json ...>`: the shards of a run (or runs of separate suites) judged
 * as one. Verdicts are recomputed from the case results with the engine's own verdict code, so
 * the requirement statuses, reports and exit code are those an unsharded run would give.
 */
import { Baseline, baselineTarget, loadBaseline } from '../src/engine/baseline.js';
import type { EngineEvent } from '../src/engine/events.js';
import type { CaseDef, Gating, Interruption, LoadedSuite, RunResult, SuiteResult } from '../src/engine/model.js';
import { INTERRUPTED, INTERRUPTED_RUNNING } from '../src/engine/runtime/run-case.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { blockOnAssumptions, gatingOf, gatingWords, interruptedSummary, requirementVerdicts, summarize } from '../src/engine/verdicts.js';
import { createConsoleReporter, createReporters, finishWriters, holdSummary, type Reporter } from '../src/reporting/index.js';
import { keptCaseFiles } from './kept-cases.js';
import { applyCatalog, checkCoverage, installedSuites } from './merge-catalog.js';
import { checkShardSplit, mergeSuites, type MergedSuite } from './merge-shards.js';
import { checkVersions, installedSuiteVersion } from './merge-versions.js';
import { readJsonReport, type ReadReport } from './results-file.js';

export interface MergeFlags {
  report?: string[];
  strict?: boolean;
  stricter?: boolean;
  requireJudged?: number;
  baseline?: string;
  color?: boolean;
  verbose?: boolean;
  /** Merge results written by another specgate or suite version, with a warning (the installed catalog judges them). */
  allowVersionMix?: boolean;
  /** Judge results that lack cases of their suites (runs of some cases or sides), with a warning. */
  allowPartial?: boolean;
  /** `--cases`: the folders of case files kept outside the suites that the runs were given. */
  cases?: string[];
}

const DEFAULT_REPORTS = ['junit=reports/junit.xml', 'json=reports/results.json'];

/** The loaded-suite view of a merged suite that the verdict and baseline code read. */
function asLoaded(s: MergedSuite): LoadedSuite {
  const cases = s.cases.map((c): CaseDef => ({ id: c.id, requirements: c.requirements, steps: [], location: c.location ?? { file: '', line: 0, column: 0 } }));
  return { name: s.name, dir: '', requirements: s.catalog, cases };
}

/** Judges the merged suites as one run, with this command's baseline and gating level. */
export function judgeMerged(reports: readonly ReadReport[], suites: readonly MergedSuite[], gating: Gating, baseline: Baseline, requireJudged?: number): RunResult {
  // one interrupted part leaves the whole run unfinished: never a green gate
  const interrupted = interruptionOf(reports, suites);
  const results: SuiteResult[] = suites.map((s) => {
    // a case of one shard may rest on a rule that failed in another: judged together, it is blocked
    s.cases = blockOnAssumptions(s.cases);
    for (const c of s.cases) {
      // The shards' baseline marks are theirs; this command's baseline decides.
      delete c.baseline;
      const status = baseline.caseStatus(s.name, c);
      if (status) c.baseline = status;
    }
    return {
      name: s.name,
      target: s.target,
      cases: s.cases,
      requirements: requirementVerdicts(asLoaded(s), s.cases, baseline, s.sides, s.selection),
      durationMs: s.durationMs,
      ...(s.error ? { error: s.error } : {}),
      ...(s.sides ? { sides: s.sides } : {}),
      ...(s.selection ? { selection: s.selection } : {}),
      properties: s.properties,
      version: s.version,
      ...(s.trace ? { trace: s.trace } : {}),
    };
  });
  const startedAt = reports.map((r) => r.startedAt).sort()[0] ?? new Date().toISOString();
  const summary = summarize(results, gating, baseline, requireJudged);
  return {
    startedAt,
    // The shards ran side by side: the longest one is how long the run took.
    durationMs: Math.max(0, ...reports.map((r) => r.durationMs)),
    seed: reports[0]?.seed ?? 0,
    strict: gating.strict,
    stricter: gating.stricter,
    suites: results,
    requirements: results.flatMap((r) => r.requirements),
    summary: interrupted ? interruptedSummary(summary, interrupted, results) : summary,
    ...(interrupted ? { interrupted } : {}),
  };
}

/**
 * The interruption of any part: the one its report records, or, when a report says none though
 * its cases were stopped by one (the reasons only an interrupted run gives), an interruption by
 * Ctrl-C, so deleting the mark cannot make a stopped run's gate green.
 */
function interruptionOf(reports: readonly ReadReport[], suites: readonly MergedSuite[]): Interruption | undefined {
  const recorded = reports.find((r) => r.interrupted)?.interrupted;
  if (recorded) return recorded;
  const stopped = suites.some((s) => s.cases.some((c) => c.reason === INTERRUPTED || c.reason === INTERRUPTED_RUNNING));
  return stopped ? { signal: 'SIGINT' } : undefined;
}

/** The event stream of a finished run, so every reporter writes a merged run as it writes a live one. */
function replayEvents(result: RunResult, suites: readonly MergedSuite[], warnings: string[], emit: (e: EngineEvent) => void): void {
  emit({ type: 'run-start', startedAt: result.startedAt, seed: result.seed, suites: result.suites.map((s) => ({ name: s.name, cases: s.cases.length, target: s.target })) });
  for (const message of warnings) emit({ type: 'log', level: 'warn', message });
  for (const [i, s] of result.suites.entries()) {
    const catalog = suites[i]?.catalog ?? [];
    emit({ type: 'suite-start', suite: s.name, target: s.target, requirements: catalog, cases: s.cases.map((c) => ({ id: c.id, requirements: c.requirements })) });
    for (const c of s.cases) {
      for (const failure of c.failures) emit({ type: 'failure', suite: s.name, caseId: c.id, failure });
      emit({ type: 'case-finish', suite: s.name, result: c });
    }
    emit({ type: 'suite-finish', suite: s.name, result: s });
  }
  emit({ type: 'run-finish', result });
}

/** What the merge should tell the user before the verdict: differing seeds or levels, baseline entries that name nothing. */
function mergeWarnings(reports: readonly ReadReport[], suites: readonly MergedSuite[], gating: Gating, baseline: Baseline): string[] {
  const out: string[] = [];
  const seeds = [...new Set(reports.map((r) => r.seed))];
  if (seeds.length > 1) out.push(`the reports ran with different seeds (${seeds.join(', ')}): give every shard the same --seed so generated inputs match an unsharded run`);
  const levels = reports.filter((r) => r.strict !== gating.strict || r.stricter !== gating.stricter);
  if (levels.length) out.push(`${levels.map((r) => `${r.file} (gating ${gatingWords(r)})`).join(', ')} ran at another gating level than this merge (${gatingWords(gating)}): the merge's gating level decides`);
  const loaded = suites.map(asLoaded);
  for (const entry of baseline.entries) {
    const target = baselineTarget(entry.id, loaded);
    if (target.kind === 'unknown' || (target.kind !== 'requirement' && target.missing)) out.push(`baseline entry "${entry.id}" names no requirement, case or requirement of a case of the merged suites; fix or remove it (it can never become stale)`);
  }
  return out;
}

/** Runs `specgate merge`; returns the exit code an unsharded run would have given. */
export async function mergeCommand(modules: SuiteModule[], files: string[], flags: MergeFlags): Promise<number> {
  // checked before anything loads or runs: a report that cannot be written is a usage error
  const fileReporters = createReporters(flags.report?.length ? flags.report : DEFAULT_REPORTS);
  const reports = files.map(readJsonReport);
  // judged by the installed suites, never by what the reports say of themselves
  const versionWarnings = checkVersions(reports, modules, flags.allowVersionMix ?? false);
  const installed = installedSuites(reports, modules, keptCaseFiles(flags.cases));
  const catalogWarnings = applyCatalog(reports, installed);
  const suites = mergeSuites(reports);
  checkShardSplit(reports, installed);
  const coverageWarnings = checkCoverage(suites, installed, flags.allowPartial ?? false);
  for (const s of suites) {
    const module = modules.find((m) => m.name === s.name);
    if (module) s.version = installedSuiteVersion(module);
  }
  const baseline = flags.baseline ? loadBaseline(flags.baseline) : new Baseline();
  const gating = gatingOf(flags.strict ?? false, flags.stricter ?? false);
  // as in run: the summary ends with the exit code, which a report that cannot be written changes
  const terminal = holdSummary(createConsoleReporter({ stream: process.stdout, color: flags.color !== false && Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'], verbose: flags.verbose ?? false }));
  const reporters: Reporter[] = [terminal.reporter, ...fileReporters];
  const warnings = [...versionWarnings, ...catalogWarnings, ...coverageWarnings, ...mergeWarnings(reports, suites, gating, baseline)];
  const result = judgeMerged(reports, suites, gating, baseline, flags.requireJudged);
  replayEvents(result, suites, warnings, (e) => {
    for (const r of reporters) r.onEvent(e);
  });
  const unwritten = await finishWriters(fileReporters);
  for (const e of unwritten) process.stderr.write(`specgate: error [${e.code}]: ${e.message}\n`);
  return terminal.release(unwritten);
}
