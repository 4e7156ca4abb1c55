import { SpecgateError, SpecgateErrorList, asSpecgateError } from '../errors.js';
import { closeIdleBrowser, holdBrowser } from '../targets/browser/shared-browser.js';
import { createExecRunner } from '../targets/exec-runner.js';
import { HTTP_DEFAULTS, createHttpClient } from '../targets/http-client.js';
import { Redactor } from '../targets/redact.js';
import { THROTTLE_DEFAULTS, Throttle, type ThrottlePolicy } from '../targets/throttle.js';
import type { HttpClient } from '../targets/types.js';
import { Baseline, baselineTarget } from './baseline.js';
import { EventBus, type EventSink } from './events.js';
import { checkTargetConfig } from './loader/target-config.js';
import type { CaseDef, CaseResult, Interruption, LoadedSuite, RequirementVerdict, RunResult, Selection, ShardInfo, SuiteResult } from './model.js';
import { loadSuites, type LoadedSuites } from './load-suites.js';
import type { Registry } from './registry.js';
import { CaseSlots } from './case-slots.js';
import { interruptedSuite, pool, runSuite } from './run-suite.js';
import { SuiteChannels } from './suite-channels.js';
import { sideBySide } from './side-by-side.js';
import { DEFAULT_CONCURRENCY, DEFAULT_SUITES_AT_ONCE } from './run-defaults.js';
import { randomSeed } from './runtime/seeds.js';
import type { Redaction, SuiteRuntime } from './runtime/suite-runtime.js';
import type { SuiteModule } from './suite-module.js';
import { requestDeadlineMs } from './request-deadline.js';
import { prepareTarget, type TargetChoice } from './target-setup.js';
import { gatingOf, interruptedSummary, summarize } from './verdicts.js';
import { passiveTable, runPassiveSuite } from './passive/passive-suite.js';
import { casesVisitPages } from './pages-ahead.js';
import { caseSide, casesOfSides, otherSideReason, sectionSideOrigin, sideProperty, unknownSide } from './sides.js';
import { caseSelection, casesOfSelection, notSelectedReason, selectionProblems, selectionProperty, suitesOfNamedCases } from './selection.js';
import { runSelections } from './section-selection.js';
import { traceSummary } from './trace/trace-coverage.js';

// the loading alone, for what reads suites without running them (listing, validating)
export { loadSuites, type LoadedSuites };

export interface RunOptions {
  /** Every known suite module (names in suite files resolve across all of them). */
  modules: SuiteModule[];
  /** Suites to run, in order. */
  suites: string[];
  /** Case IDs to run (`id` or `suite/id`); all when empty. The requirements they do not cover are not selected. */
  cases?: string[];
  /**
   * Whether `suites` was named by the caller (`--suite`), the default. With `cases`, a named suite
   * none of whose cases they name is a usage error (it would judge nothing and read conformant);
   * a suite the run took by default (every suite, or the profile's) is then simply not run.
   */
  suitesNamed?: boolean;
  /** Case files kept outside the suites (`run --cases`): their cases run with the suites they name. */
  caseFiles?: string[];
  /**
   * Per suite: the one side of the protocol to judge (`--side`); it wins over the profile
   * section's `side:`. The other sides' cases do not run and their requirements are not applicable.
   */
  sides?: Record<string, string>;
  /**
   * Per suite: the parts to judge (`--part`). With `requirements`, the run's selection: a case
   * runs when it covers a selected requirement, and a requirement outside it that no case of the
   * run covers is not selected (src/engine/selection.ts). Without both, and without `cases`, a
   * target section's `select:` selects for its suite (src/engine/section-selection.ts).
   */
  parts?: Record<string, string[]>;
  /** Requirement IDs or globs to judge (`--requirement`), for every suite; `!<glob>` leaves its matches out. */
  requirements?: string[];
  /** Per suite: the external target, or none for the embedded reference. */
  targets: Record<string, TargetChoice>;
  /**
   * Problems already found in the target profile (its schema, `${env:...}`, unknown suites): the
   * run stops with them and with every problem its own checks of the targets find, all at once.
   */
  configProblems?: SpecgateError[];
  seed?: number;
  runs?: number;
  path?: string;
  strict?: boolean;
  /** STRICTER-level failures gate too (implies strict). */
  stricter?: boolean;
  /** The percentage of gating requirements the run must judge to be conformant (default: more than none). */
  requireJudged?: number;
  baseline?: Baseline;
  /** Cases in flight at once, over every suite of the run (default {@link DEFAULT_CONCURRENCY}). */
  concurrency?: number;
  /**
   * Live suites run side by side, each against its own target (default {@link DEFAULT_SUITES_AT_ONCE}):
   * one suite's serial tail and its target's start overlap another's cases. Their cases share
   * `concurrency`, the earlier suite first; the events and the results keep the order of `suites`.
   */
  suitesAtOnce?: number;
  includeSlow?: boolean;
  caseTimeoutMs?: number;
  /** Shrink failing generated inputs (default true). */
  shrink?: boolean;
  http?: { timeoutMs?: number; maxBodyBytes?: number };
  /**
   * How requests to an external target are paced (`--rate`) and how long one request waits out
   * throttling answers (`--max-wait`); the embedded references never throttle and are not paced.
   */
  throttle?: Partial<ThrottlePolicy>;
  env?: Record<string, string | undefined>;
  sinks?: EventSink[];
  /** Emit an `exchange` event for every request and process run (costs time on large runs). */
  traceExchanges?: boolean;
  /** Builds the command that replays one case (the CLI knows how it was called). */
  replay?: (suite: string, caseId: string, seed: number, path?: string) => string;
  /**
   * Aborting it interrupts the run: no case starts after that, the cases in flight stop, and the
   * result is marked interrupted (exit code 130, or 143 when the reason is an Interruption by SIGTERM).
   */
  signal?: AbortSignal;
  /** The folder of the run's reports: failure screenshots of a browser agent go in its `screenshots/`. */
  reportDir?: string;
  /** This machine's part of a sharded run: picks its cases from every selected one, after loading. */
  shard?: (selected: SelectedCases[]) => { selected: SelectedCases[]; info: ShardInfo };
  /**
   * Told the suites as loaded (every case of each, before any selection), once they are: a
   * caller that reads them after the run (the CLI's notes on unset variables, its regression
   * cases) need not load them again, which on a suite of 200,000 cases took seconds.
   */
  onLoaded?: (loaded: LoadedSuites) => void;
  /**
   * The suites already loaded by the caller, by {@link loadSuites} of `modules`, `suites` (the
   * same names, in the same order) and `caseFiles`: the run uses them rather than loading them
   * again (the CLI loads once to check `--case` before the run). `onLoaded` is told them too.
   * `modules` and `caseFiles` are then not read: only the suites' names are checked.
   * @throws SpecgateError `SG_INTERNAL` before anything runs when they are not the suites `suites` names.
   */
  loaded?: LoadedSuites;
}

export { DEFAULT_CONCURRENCY, DEFAULT_SUITES_AT_ONCE };

/** The cases selected from one loaded suite. */
export interface SelectedCases {
  suite: LoadedSuite;
  cases: CaseDef[];
}

/** `loaded` when it holds the suites `names` names, in that order (RunOptions.loaded). */
function loadedAsNamed(loaded: LoadedSuites, names: readonly string[]): LoadedSuites {
  const held = loaded.suites.map((s) => s.name);
  if (held.length !== names.length || held.some((n, i) => n !== names[i]))
    throw new SpecgateError('SG_INTERNAL', `run: the suites given as loaded are ${held.join(', ') || 'none'}, but the run names ${names.join(', ') || 'none'}; load the suites the run names (loadSuites(modules, suites, caseFiles)) or leave loaded out`);
  return loaded;
}

/**
 * Loads the selected suites, checks their targets, runs each suite against its target (live,
 * recorded or interrupted; live ones side by side, see {@link RunOptions.suitesAtOnce}) and
 * judges the whole run; every event goes to `opts.sinks`, one suite after another in the
 * order of `opts.suites`.
 */
export async function run(opts: RunOptions): Promise<RunResult> {
  const loaded = opts.loaded ? loadedAsNamed(opts.loaded, opts.suites) : loadSuites(opts.modules, opts.suites, opts.caseFiles);
  opts.onLoaded?.(loaded);
  const { registry } = loaded;
  const suites = suitesOfNamedCases(loaded.suites, opts.cases ?? [], opts.suitesNamed ?? true);
  for (const s of suites) if (opts.targets[s.name]?.recording) passiveTable(s);
  const seed = opts.seed ?? randomSeed();
  const gating = gatingOf(opts.strict ?? false, opts.stricter ?? false);
  const baseline = opts.baseline ?? new Baseline();
  const bus = new EventBus();
  for (const sink of opts.sinks ?? []) bus.subscribe(sink);
  const signal = opts.signal ?? new AbortController().signal;
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const { sides, problems: sideProblems } = chosenSides(suites, opts);
  const asked = { ...(opts.parts ? { parts: opts.parts } : {}), ...(opts.requirements ? { requirements: opts.requirements } : {}) };
  const wrongSelection = selectionProblems(suites, asked);
  if (wrongSelection.length) throw new SpecgateErrorList(wrongSelection);
  // the command line's selection, else each profile section's select:
  const { selections, notes: setAside } = runSelections(suites, { ...asked, ...(opts.cases ? { cases: opts.cases } : {}) }, (name) => opts.targets[name]?.section);
  const all = suites.map((s) => ({ suite: s, cases: selectCases(s, opts.cases, sides.get(s.name), selections.get(s.name)) }));
  // a run of named cases judges what they cover: the rest is not selected, as outside --part
  const wanted = opts.cases ?? [];
  if (wanted.length) for (const { suite, cases } of all) selections.set(suite.name, caseSelection(suite, cases, selections.get(suite.name), wanted));
  const sharded = opts.shard?.(all);
  const selected = sharded?.selected ?? all;
  // a profile that cannot work with the cases selected stops here, before anything starts (exit 2),
  // with every problem found: the vendor fixes them in one go
  const misconfigured = [...(opts.configProblems ?? []), ...sideProblems, ...checkTargetConfig(selected, opts.targets, registry, { includeSlow: opts.includeSlow ?? false })];
  if (misconfigured.length) throw new SpecgateErrorList(misconfigured);
  bus.emit({ type: 'run-start', startedAt, seed, suites: selected.map(({ suite, cases }) => ({ name: suite.name, cases: cases.length, target: opts.targets[suite.name]?.label ?? 'reference' })) });
  for (const message of setAside) bus.emit({ type: 'log', level: 'warn', message });
  // a suite a run of named cases leaves out still makes its baseline entries known ones
  warnUnmatchedBaseline(baseline, loaded.suites, bus);
  const results = new Array<SuiteResult>(selected.length);
  const throttle = new Throttle({ ...THROTTLE_DEFAULTS, ...opts.throttle });
  const shared: SharedRun = { opts, registry, baseline, signal, seed, exec: createExecRunner(), throttle, slots: new CaseSlots(Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY), signal) };
  // suites side by side: each tells its events on a channel of its own, released in the run's order
  const channels = new SuiteChannels(bus, selected.length);
  const runOne = async (index: number): Promise<void> => {
    const { suite, cases } = selected[index] as SelectedCases;
    const suiteBus = channels.channel(index);
    const choice = opts.targets[suite.name] ?? { section: undefined, label: 'reference', secrets: [] };
    const judged = sides.get(suite.name);
    const selection = selections.get(suite.name);
    try {
      if (signal.aborted) results[index] = interruptedSuite(suite, cases, choice.label, suiteBus, baseline, judged, selection);
      else if (choice.recording) results[index] = runPassiveSuite(passiveTable(suite), cases, choice.recording, choice.label, suiteBus, baseline, judged, selection, registry.module(suite.name).passiveRules, (name, value) => registry.checkSchema(name, value));
      else results[index] = await runLiveSuite(shared, { bus: suiteBus, rank: index }, suite, cases, choice, judged, selection);
    } finally {
      channels.close(index);
    }
  };
  // Chromium starts while the first cases run when a case will open pages, not when its first visit waits for it
  const letBrowserGo = casesVisitPages(selected, registry, (name) => opts.targets[name]?.recording !== undefined) ? holdBrowser() : () => undefined;
  try {
    for (const stretch of sideBySide(selected, opts.targets)) await pool(stretch, Math.max(1, opts.suitesAtOnce ?? DEFAULT_SUITES_AT_ONCE), runOne);
  } finally {
    letBrowserGo();
    // the exec targets' worker thread, idle now
    await shared.exec.close();
  }
  // the page visits' browser, idle now, would hold the process up for its idle time
  await closeIdleBrowser();
  // the reports record which version of each suite judged it, so results of another version are not merged as this one
  for (const r of results) {
    const version = registry.module(r.name).version;
    if (version !== undefined) r.version = version;
    // what of the specification the suite's requirements judge, by section, beside how they fared
    const loaded = suites.find((s) => s.name === r.name);
    if (loaded?.trace) r.trace = traceSummary(loaded.trace, loaded.requirements);
  }
  const interrupted = signal.aborted ? interruptionOf(signal.reason) : undefined;
  const verdicts = summarize(results, gating, baseline, opts.requireJudged);
  const summary = interrupted ? interruptedSummary(verdicts, interrupted, results) : verdicts;
  const runResult: RunResult = {
    startedAt,
    durationMs: performance.now() - started,
    seed,
    strict: gating.strict,
    stricter: gating.stricter,
    suites: results,
    requirements: results.flatMap((r) => r.requirements),
    summary,
    ...(sharded ? { shard: sharded.info } : {}),
    ...(interrupted ? { interrupted } : {}),
  };
  bus.emit({ type: 'run-finish', result: runResult });
  return runResult;
}

/** What every suite of one run shares. */
interface SharedRun {
  opts: RunOptions;
  registry: Registry;
  baseline: Baseline;
  signal: AbortSignal;
  seed: number;
  exec: ReturnType<typeof createExecRunner>;
  /** One pace and one memory of throttling origins for the whole run. */
  throttle: Throttle;
  /** The run's bound on cases in flight, over the suites running side by side. */
  slots: CaseSlots;
}

/** One suite's place in the run: the bus its events go out on, and its rank for the run's case slots. */
interface SuitePlace {
  bus: EventBus;
  rank: number;
}

/** A baseline entry that names nothing of the suites run can never become stale: said, not silently kept. */
function warnUnmatchedBaseline(baseline: Baseline, suites: LoadedSuite[], bus: EventBus): void {
  for (const entry of baseline.entries) {
    const target = baselineTarget(entry.id, suites);
    if (target.kind === 'unknown' || (target.kind !== 'requirement' && target.missing)) bus.emit({ type: 'log', level: 'warn', message: `baseline entry "${entry.id}" names no requirement, case or requirement of a case of the suites run; fix or remove it (it can never become stale)` });
  }
}

/**
 * Runs one suite against a live target (an external one, or the embedded reference): the
 * target prepared, the cases run, the target stopped and its HTTP clients closed. A target
 * that cannot be prepared faults every case of the suite, with the reason.
 */
async function runLiveSuite(shared: SharedRun, place: SuitePlace, suite: LoadedSuite, cases: CaseDef[], choice: TargetChoice, judged: string[] | undefined, selection: Selection | undefined): Promise<SuiteResult> {
  const { opts, registry } = shared;
  const { bus } = place;
  const clients: HttpClient[] = [];
  // the profile's secrets until the target is up; then the suite's redactor, which learns what the target issues
  let redactor: Redaction = new Redactor(choice.secrets);
  const httpTimeoutMs = requestDeadlineMs(choice.section, opts.http?.timeoutMs, caseTimeoutOf(opts));
  const http = (): HttpClient => {
    const limits = choice.section?.http ?? {};
    const c = createHttpClient({
      timeoutMs: httpTimeoutMs,
      maxBodyBytes: limits.maxBodyBytes ?? opts.http?.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
      userAgent: 'specgate',
      redact: (s) => redactor.redactString(s),
      ...(choice.section ? { throttle: shared.throttle } : {}),
    });
    clients.push(c);
    return c;
  };
  try {
    const { target, timeMode } = await prepareTarget(registry.module(suite.name), choice, { includeSlow: opts.includeSlow ?? false, http, ...(opts.reportDir !== undefined ? { reportDir: opts.reportDir } : {}) });
    try {
      const rt = suiteRuntime(shared, bus, suite, choice, { target, timeMode, http: http(), httpTimeoutMs });
      redactor = rt.redaction;
      const slots = { pool: shared.slots, rank: place.rank };
      return await runSuite(rt, cases, bus, { concurrency: shared.slots.size, slots, baseline: shared.baseline, signal: shared.signal, ...(judged ? { sides: judged } : {}), ...(selection ? { selection } : {}) });
    } finally {
      await target.stop().catch(() => undefined);
    }
  } catch (e) {
    const result = faultedSuite(suite, cases, choice.label, asSpecgateError(e), judged, selection);
    bus.emit({ type: 'suite-finish', suite: suite.name, result });
    return result;
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  }
}

/** The runtime the cases of one live suite share. */
function suiteRuntime(
  shared: SharedRun,
  bus: EventBus,
  suite: LoadedSuite,
  choice: TargetChoice,
  prepared: { target: SuiteRuntime['target']; timeMode: SuiteRuntime['timeMode']; http: HttpClient; httpTimeoutMs: number },
): SuiteRuntime {
  const { opts, registry, seed } = shared;
  const { target } = prepared;
  // with nothing to hide (no secret, nothing issued yet) it returns every result as it is, unwalked
  const redaction = new Redactor([...choice.secrets, ...target.secrets], {
    onFull: (max) => bus.emit({ type: 'log', level: 'warn', message: `suite ${suite.name}: the target issued more than ${max} credentials; the reports mask the first ${max}, and may show later ones in clear` }),
  });
  return {
    suite,
    module: registry.module(suite.name),
    registry,
    target,
    http: prepared.http,
    // an external target's deadline when the profile or the command line sets one (browser
    // pages keep their own, longer default otherwise: a page loads more than one answer); the
    // embedded reference runs in this process and is never the one that stalls
    ...(choice.section && (choice.section.http?.timeoutMs ?? opts.http?.timeoutMs) !== undefined ? { httpTimeoutMs: prepared.httpTimeoutMs } : {}),
    exec: shared.exec,
    timeMode: prepared.timeMode,
    runSeed: seed,
    propertyWidth: shared.slots.size,
    runs: opts.runs,
    replayPath: opts.path,
    redaction,
    replay: (caseId, s, path) => (opts.replay ? opts.replay(suite.name, caseId, s, path) : `specgate run --suite ${suite.name} --case ${caseId} --seed ${s}${path ? ` --path ${path}` : ''}`),
    caseTimeoutMs: caseTimeoutOf(opts),
    shrink: opts.shrink ?? true,
    env: opts.env ?? process.env,
    observations: new Map(),
    onExchange: opts.traceExchanges ? (caseId, exchange) => bus.emit({ type: 'exchange', suite: suite.name, caseId, exchange }) : undefined,
  };
}

/** A case's deadline when its case file sets none (`--case-timeout`). */
function caseTimeoutOf(opts: RunOptions): number {
  return opts.caseTimeoutMs ?? 60_000;
}

/** The interruption an abort reason describes; any other reason counts as Ctrl-C. */
function interruptionOf(reason: unknown): Interruption {
  const signal = typeof reason === 'object' && reason !== null ? (reason as { signal?: unknown }).signal : undefined;
  return { signal: signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT' };
}

/**
 * The sides each suite judges: `--side` for it, else its profile section's `side:`; a suite
 * with neither judges every side. A side the suite does not declare is a problem that stops the
 * run (exit 2); its suite is checked meanwhile with every side.
 */
function chosenSides(suites: LoadedSuite[], opts: RunOptions): { sides: Map<string, string[]>; problems: SpecgateError[] } {
  const out = new Map<string, string[]>();
  const errors: SpecgateError[] = [];
  for (const suite of suites) {
    const flag = opts.sides?.[suite.name];
    const section = opts.targets[suite.name]?.section;
    const side = flag ?? section?.side;
    if (side === undefined) continue;
    const origin = flag !== undefined
      ? { code: 'SG_USAGE' as const, label: `--side ${side}`, ...(suites.length > 1 ? { hint: ` (with several suites, choose per suite: --side ${suite.name}=<side>)` } : {}) }
      : sectionSideOrigin(suite.name, section?.location);
    const problem = unknownSide(suite, side, origin);
    if (problem) errors.push(problem);
    else out.set(suite.name, [side]);
  }
  return { sides: out, problems: errors };
}

/**
 * The cases of `--case` (all when none is named) that judge the chosen sides and cover a
 * selected requirement. A case named with --case that judges another side, or covers nothing
 * selected, is a usage error: the run would silently leave it out.
 */
function selectCases(suite: LoadedSuite, wanted: string[] | undefined, sides: string[] | undefined, selection: Selection | undefined): CaseDef[] {
  const named = wanted?.length ? suite.cases.filter((c) => wanted.includes(c.id) || wanted.includes(`${suite.name}/${c.id}`)) : suite.cases;
  const ofSides = casesOfSides(suite, named, sides);
  if (wanted?.length && sides && ofSides.length < named.length) {
    const other = named.find((c) => !ofSides.includes(c)) as CaseDef;
    throw new SpecgateError('SG_USAGE', `case ${suite.name}/${other.id} judges the ${caseSide(suite, other) ?? 'other'} side, and ${otherSideReason(sides)}: drop it from --case or choose its side`, { suite: suite.name, case: other.id });
  }
  const kept = casesOfSelection(ofSides, selection);
  if (wanted?.length && selection && kept.length < ofSides.length) {
    const other = ofSides.find((c) => !kept.includes(c)) as CaseDef;
    throw new SpecgateError('SG_USAGE', `case ${suite.name}/${other.id} covers ${other.requirements.join(', ')}, none of which this run selects (${selection.label}): drop it from --case or widen --part / --requirement`, { suite: suite.name, case: other.id });
  }
  return kept;
}

/** A suite whose target could not be prepared: every case errored with the fault, so the report still says what did not run. */
function faultedSuite(suite: LoadedSuite, cases: CaseDef[], label: string, err: SpecgateError, sides: string[] | undefined, selection: Selection | undefined): SuiteResult {
  const selected = selection ? new Set(selection.requirements) : undefined;
  const caseResults: CaseResult[] = cases.map((c) => ({
    suite: suite.name,
    id: c.id,
    requirements: c.requirements,
    outcome: 'errored',
    reason: `target not started: ${err.message}`,
    errorCode: err.code,
    failures: [],
    exchanges: [],
    durationMs: 0,
    location: c.location,
  }));
  const requirements = suite.requirements.map((r): RequirementVerdict => {
    // a requirement of a side this run does not judge stays not applicable, target or no target
    const otherSide = sides !== undefined && r.side !== undefined && !sides.includes(r.side);
    const covering = cases.filter((c) => c.requirements.includes(r.id));
    // as requirementVerdicts decides it: outside the selection, and no case of the run covers it
    const notSelected = !r.excluded && !otherSide && selection !== undefined && !selected?.has(r.id) && !covering.length;
    return {
      id: r.id,
      suite: suite.name,
      level: r.level,
      text: r.text,
      source: r.source,
      status: r.excluded ? 'excluded' : otherSide ? 'not-applicable' : notSelected ? 'not-selected' : 'untested',
      ...(r.side !== undefined ? { side: r.side } : {}),
      cases: cases.filter((c) => c.requirements.includes(r.id)).map((c) => c.id),
      failures: [],
      reason: r.excluded ?? (otherSide ? otherSideReason(sides) : selection && notSelected ? notSelectedReason(selection) : `the target could not be prepared: ${err.message}`),
      errored: cases.filter((c) => c.requirements.includes(r.id)).length,
      skipped: 0,
    };
  });
  return {
    name: suite.name,
    target: label,
    cases: caseResults,
    requirements,
    durationMs: 0,
    error: { code: err.code, message: err.message },
    ...(sides ? { sides: [...sides] } : {}),
    ...(selection ? { selection } : {}),
    properties: { target: label, ...sideProperty(sides), ...selectionProperty(selection) },
  };
}
