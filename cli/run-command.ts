import { dirname, join, resolve } from 'node:path';
import { SpecgateError, asSpecgateError } from '../src/errors.js';
import { loadBaseline } from '../src/engine/baseline.js';
import { DEFAULT_CONCURRENCY, run, type LoadedSuites } from '../src/engine/run.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { createConsoleReporter, createReporters, finishWriters, holdSummary, parseReportSpec, type Reporter } from '../src/reporting/index.js';
import { checkCaseSelection } from './case-selection.js';
import { watchInterrupts } from './interrupt.js';
import { keptCaseFiles } from './kept-cases.js';
import { checkRegressionsFolder, hasRegressionCases, writeRegressionCases } from './regression-cases.js';
import { replayCommand } from './replay.js';
import { foldedNote, type SeedValue } from './seed-value.js';
import { parseShard, readTimings, shardSelector } from './shard.js';
import { selectionChoice } from './selection-flags.js';
import { parseSides } from './side-choice.js';
import { planTargets } from './target-choice.js';
import { unsetOptionalNotes, withUnsetNotes } from './unset-vars-note.js';

export interface RunFlags {
  suite?: string[];
  case?: string[];
  /** `--side`: a side name for every suite, or `suite=side`. */
  side?: string[];
  /** `--part`: a part name for every suite, or `suite=part`. */
  part?: string[];
  /** `--requirement`: requirement IDs or globs to judge (`!` leaves some out). */
  requirement?: string[];
  target?: string;
  report?: string[];
  /** `--seed`: the run uses `seed.seed` (folded from any other value given). */
  seed?: SeedValue;
  runs?: number;
  path?: string;
  strict?: boolean;
  stricter?: boolean;
  requireJudged?: number;
  baseline?: string;
  concurrency?: number;
  includeSlow?: boolean;
  caseTimeout?: number;
  maxWait?: number;
  rate?: number;
  shrink?: boolean;
  color?: boolean;
  verbose?: boolean;
  /** `k/n`: run only this machine's shard of the selected cases. */
  shard?: string;
  /** An earlier results.json whose case durations balance the shards. */
  shardTimings?: string;
  /** Where regression cases from shrunk counterexamples are written (default reports/regressions). */
  regressions?: string;
  /** `--cases`: folders (or files) of case files kept outside the suites, run with the suites they name. */
  cases?: string[];
  /** Suite target flags (`--plugin X`), by flag name. */
  targetFlags: Record<string, string>;
}

const DEFAULT_REPORTS = ['junit=reports/junit.xml', 'json=reports/results.json'];
const DEFAULT_REGRESSIONS = 'reports/regressions';

/**
 * `specgate run`: load, run, report; the exit code is the run's verdict, or 130 (SIGINT) or 143
 * (SIGTERM) when the run was interrupted: then the cases in flight are stopped, the rest are
 * skipped as interrupted, and the reports still say what ran.
 */
export async function runCommand(modules: SuiteModule[], flags: RunFlags, argv: string[]): Promise<number> {
  // checked before anything loads or runs: a report that cannot be written is a usage error
  const reportSpecs = flags.report?.length ? flags.report : DEFAULT_REPORTS;
  const fileReporters = createReporters(reportSpecs);
  // failure screenshots go beside the reports: the JSON report's folder, else the first one's
  const parsedReports = reportSpecs.map((spec) => parseReportSpec(spec));
  const reportFile = (parsedReports.find((p) => p.format === 'json') ?? parsedReports[0])?.path;
  // beside the JSON report the run was asked for (not beside a device or a stream such as /dev/stdout)
  const jsonReport = flags.report?.length ? parsedReports.find((p) => p.format === 'json')?.path : undefined;
  const besideJson = jsonReport !== undefined && !/^\/(dev|proc)\//.test(resolve(jsonReport));
  const regressions = flags.regressions ?? (besideJson ? join(dirname(jsonReport), 'regressions') : DEFAULT_REGRESSIONS);
  checkRegressionsFolder(regressions, flags.regressions !== undefined);
  const caseFiles = keptCaseFiles(flags.cases);
  const plan = planTargets(modules, { ...(flags.suite ? { suites: flags.suite } : {}), ...(flags.target ? { target: flags.target } : {}), flags: flags.targetFlags });
  if (flags.path && !flags.case?.length) throw new SpecgateError('SG_USAGE', '--path replays one property failure: give the case with --case too (the replay command printed with the failure has both)');
  // the suites as loaded, once: to check --case when given (then handed to the run), else by the run; for what reads them after it
  let loaded: LoadedSuites | undefined = flags.case?.length ? checkCaseSelection(modules, plan.suites, flags.case, caseFiles) : undefined;
  const sides = flags.side?.length ? parseSides(flags.side, plan.suites) : undefined;
  const selection = selectionChoice(flags, plan.suites);
  const baseline = flags.baseline ? loadBaseline(flags.baseline) : undefined;
  if (flags.shardTimings && !flags.shard) throw new SpecgateError('SG_USAGE', '--shard-timings balances shards: give --shard k/n too');
  const shard = flags.shard
    ? shardSelector(parseShard(flags.shard), { ...(flags.shardTimings ? { timings: readTimings(flags.shardTimings) } : {}), concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY, log: (line) => process.stdout.write(`${line}\n`) })
    : undefined;
  // the summary ends with the exit code, which a report that cannot be written changes: it waits for the writes
  const terminal = holdSummary(
    withUnsetNotes(
      createConsoleReporter({ stream: process.stdout, color: flags.color !== false && Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'], verbose: flags.verbose ?? false }),
      (result) => unsetOptionalNotes(modules, result, plan.targets, caseFiles, loaded),
    ),
  );
  const reporters: Reporter[] = [terminal.reporter, ...fileReporters];
  for (const u of plan.unusedFlags ?? [])
    terminal.reporter.onEvent({ type: 'log', level: 'warn', message: `--${u.flag} is a target flag of suite ${u.suite}, which this run does not select (--suite ${plan.suites.join(',')}): it is not used; add ${u.suite} to --suite to judge it` });
  const folded = foldedNote(flags.seed);
  if (folded) process.stdout.write(`${folded}\n`);
  const interrupts = watchInterrupts('stopping the cases in flight and writing the reports of what ran');
  try {
    const result = await run({
      modules,
      suites: plan.suites,
      suitesNamed: Boolean(flags.suite?.length),
      ...(flags.case ? { cases: flags.case } : {}),
      ...(caseFiles.length ? { caseFiles } : {}),
      ...(sides ? { sides } : {}),
      ...(selection.parts ? { parts: selection.parts } : {}),
      ...(selection.requirements ? { requirements: selection.requirements } : {}),
      targets: plan.targets,
      configProblems: plan.problems,
      ...(flags.seed !== undefined ? { seed: flags.seed.seed } : {}),
      ...(flags.runs !== undefined ? { runs: flags.runs } : {}),
      ...(flags.path ? { path: flags.path } : {}),
      strict: flags.strict ?? false,
      stricter: flags.stricter ?? false,
      ...(flags.requireJudged !== undefined ? { requireJudged: flags.requireJudged } : {}),
      ...(baseline ? { baseline } : {}),
      ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
      includeSlow: flags.includeSlow ?? false,
      shrink: flags.shrink !== false,
      ...(flags.caseTimeout !== undefined ? { caseTimeoutMs: flags.caseTimeout } : {}),
      ...(flags.maxWait !== undefined || flags.rate !== undefined ? { throttle: throttleOf(flags.maxWait, flags.rate) } : {}),
      sinks: reporters.map((r) => (e) => r.onEvent(e)),
      traceExchanges: flags.verbose ?? false,
      replay: (suite, caseId, seed, path) => replayCommand(argv, suite, caseId, seed, path),
      signal: interrupts.signal,
      ...(shard ? { shard } : {}),
      ...(reportFile ? { reportDir: dirname(reportFile) } : {}),
      ...(loaded ? { loaded } : {}),
      onLoaded: (l) => (loaded = l),
    });
    // the loaded suites are kept while the reports are written only when regression cases need them (a large suite is memory)
    const forRegressions = hasRegressionCases(result) ? loaded : undefined;
    loaded = undefined;
    const unwritten = await finishWriters(fileReporters);
    try {
      for (const line of writeRegressionCases(modules, result, regressions, { argv, caseFiles, ...(forRegressions ? { loaded: forRegressions } : {}) })) process.stdout.write(`${line}\n`);
    } catch (e) {
      unwritten.push(asSpecgateError(e, 'SG_CONFIG'));
    }
    for (const e of unwritten) process.stderr.write(`specgate: error [${e.code}]: ${e.message}\n`);
    return await terminal.release(unwritten);
  } finally {
    interrupts.dispose();
  }
}

/** The run's throttling options from `--max-wait` (seconds) and `--rate`. */
function throttleOf(maxWait: number | undefined, rate: number | undefined): { maxWaitMs?: number; ratePerSecond?: number } {
  return { ...(maxWait !== undefined ? { maxWaitMs: maxWait * 1000 } : {}), ...(rate !== undefined ? { ratePerSecond: rate } : {}) };
}
