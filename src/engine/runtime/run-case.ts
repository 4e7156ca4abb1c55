import { SpecgateError, asSpecgateError } from '../../errors.js';
import type { CaseDef, CaseResult, Failure } from '../model.js';
import { CaseRun, isTimeBound } from './case-run.js';
import { CaseStop } from './case-stop.js';
import { describeProgress } from './property.js';
import type { SuiteRuntime } from './suite-runtime.js';
import { NotApplicableCase } from './not-applicable.js';
import { SkipCase, SKIP_NO_CLOCK } from './time.js';
import { BlockedCase } from './evidence.js';
import { Deadlines, type DeadlineEntry } from '../../targets/deadlines.js';

/** Abort reason once a case is over (lets its in-flight I/O stop); one shared value, no stack trace per case. */
const CASE_FINISHED = Object.freeze({ code: 'SG_CASE_FINISHED', message: 'case finished' });

const ignore = (): void => undefined;

/** Skip reason of a case the run never started because it was interrupted first. */
export const INTERRUPTED = 'interrupted';
/** Skip reason of a case stopped half-way by the interruption: it has no verdict either. */
export const INTERRUPTED_RUNNING = 'interrupted while running';

/**
 * Runs one case to an outcome: passed, failed (the target broke a requirement), errored
 * (harness or target fault, with the error's code), or skipped (with the reason; a case the
 * target throttled past --max-wait is skipped with SG_TARGET_THROTTLED as its code).
 * Never throws: whatever happens becomes part of the result.
 *
 * When the run's signal (`outer.signal`) aborts, the run was interrupted: a case not started yet is
 * skipped at once, and a case in flight stops at once (its steps see the abort) and is skipped
 * too, keeping only what it had found before the interruption. Nothing it does after the abort
 * counts, since an aborted request or process says nothing about the target.
 */
export async function runCase(rt: SuiteRuntime, def: CaseDef, outer: InFlight): Promise<CaseResult> {
  const started = performance.now();
  const skipped = skipReason(rt, def);
  const stop = new CaseStop();
  const run = new CaseRun(rt, def, stop);
  if (skipped) return run.result('skipped', 0, { reason: skipped });
  if (outer.signal.aborted) return run.result('skipped', 0, { reason: INTERRUPTED });
  const watch = new CaseWatch(run, stop, def.timeoutMs ?? rt.caseTimeoutMs);
  outer.add(watch, started);
  try {
    await watch.outcome(def.property ? run.runPropertyCase() : run.runSteps(def.steps));
    const ms = performance.now() - started;
    if (run.failures.length) return run.result('failed', ms);
    // a case that ran to its end without judging anything did not pass: it had nothing to judge
    const nothing = run.nothingJudged();
    return nothing === undefined ? run.result('passed', ms) : run.result('skipped', ms, { reason: nothing });
  } catch (e) {
    const ms = performance.now() - started;
    const { interrupted } = watch;
    if (interrupted) return run.result(interrupted.length ? 'failed' : 'skipped', ms, { reason: INTERRUPTED_RUNNING, failures: interrupted });
    // a rule the case rests on does not hold: what it found before stands, the rest is blocked
    if (e instanceof BlockedCase) return run.result(run.failures.length ? 'failed' : 'skipped', ms, { reason: e.reason, blockedBy: e.by });
    if (e instanceof NotApplicableCase) return run.result('skipped', ms, { reason: e.reason, notApplicable: true });
    if (e instanceof SkipCase) return run.result('skipped', ms, { reason: e.reason });
    const err = asSpecgateError(e);
    // a rate limit is no verdict: the case is untested (what it found before still stands)
    if (err.code === 'SG_TARGET_THROTTLED') return run.result(run.failures.length ? 'failed' : 'skipped', ms, { reason: err.message, errorCode: err.code });
    // findings made before a fault still count: the case failed, and the fault is noted
    if (run.failures.length) return run.result('failed', ms, { reason: `${err.code}: ${err.message}`, errorCode: err.code });
    return run.result('errored', ms, { reason: err.message, errorCode: err.code });
  } finally {
    outer.delete(watch);
    stop.stop(CASE_FINISHED);
  }
}

/**
 * One case in flight, as its suite watches it: its deadline (in the suite's one queue of
 * deadlines) and the run's interruption both end it at once, even when its work takes a while to
 * notice its stop. One object per case holds what would otherwise be a timer, a listener and
 * the closures of a promise of its own.
 */
class CaseWatch implements DeadlineEntry {
  at = 0;
  prev: DeadlineEntry | undefined = undefined;
  next: DeadlineEntry | undefined = undefined;
  /** What the case had found when the run was interrupted (set only then). */
  interrupted: Failure[] | undefined = undefined;
  private stopNow: (reason: unknown) => void = ignore;

  constructor(
    private readonly run: CaseRun,
    private readonly stop: CaseStop,
    readonly durationMs: number,
  ) {}

  /** Settles when `work` does, or earlier, rejected, when the case must stop. */
  outcome(work: Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.stopNow = reject;
      work.then(resolve, reject);
    });
  }

  /** The case's deadline passed. */
  expire(): void {
    const err = new SpecgateError('SG_CASE_TIMEOUT', `case took longer than ${this.durationMs} ms and was stopped${describeProgress(this.run.propertyProgress)}; raise \`timeoutMs\` on the case or --case-timeout`);
    this.stop.stop(err);
    this.stopNow(err);
  }

  /** The run was interrupted. */
  interrupt(): void {
    // A property case keeps its findings only once shrunk, at its end: half-way it has none to keep.
    this.interrupted = this.run.def.property ? [] : [...this.run.failures];
    this.stopNow(new SpecgateError('SG_CASE_TIMEOUT', 'the run was interrupted'));
    this.stop.stop(new SpecgateError('SG_CASE_TIMEOUT', 'the run was interrupted'));
  }
}

/** What the run's interruption reaches: a case in flight. */
export interface Interruptible {
  interrupt(): void;
}

/**
 * The cases in flight of one suite: one listener on the run's signal for the whole suite, which
 * tells each case in flight in the order they started (as a listener of each would be told),
 * rather than a listener added and removed by every case; and one queue of their deadlines.
 */
export class InFlight {
  private readonly running = new Set<Interruptible>();
  private readonly deadlines = new Deadlines();
  private readonly onAbort = (): void => {
    for (const c of [...this.running]) c.interrupt();
  };

  constructor(readonly signal: AbortSignal) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** A case started at `started` (`performance.now()`): its deadline runs from then, and it is interrupted once if the run is while it runs. */
  add(c: Interruptible & DeadlineEntry, started: number): void {
    this.running.add(c);
    this.deadlines.add(c, started);
  }

  delete(c: Interruptible & DeadlineEntry): void {
    this.running.delete(c);
    this.deadlines.remove(c);
  }

  /** The suite is over: stop listening on the run's signal. */
  close(): void {
    this.signal.removeEventListener('abort', this.onAbort);
  }
}

function skipReason(rt: SuiteRuntime, def: CaseDef): string | undefined {
  if (def.skip) return def.skip;
  const missing = def.needs?.filter((v) => rt.target.vars[v] === undefined || rt.target.vars[v] === '');
  if (missing?.length) return `needs ${missing.join(', ')}, which the target does not set (target profile \`vars:\` or a command-line flag)`;
  if (isTimeBound(def) && rt.timeMode === 'none') return SKIP_NO_CLOCK;
  return undefined;
}
