import type { Baseline } from './baseline.js';
import { CaseSlots } from './case-slots.js';
import type { EventBus } from './events.js';
import type { CaseDef, CaseResult, LoadedSuite, Selection, SuiteResult } from './model.js';
import { isTimeBound } from './time-bound.js';
import { exclusiveGroup, isExclusive } from './exclusive-group.js';
import { earlyFirst } from './starts-early.js';
import { INTERRUPTED, InFlight, runCase } from './runtime/run-case.js';
import type { SuiteRuntime } from './runtime/suite-runtime.js';
import { selectionProperty } from './selection.js';
import { sideProperty } from './sides.js';
import { blockOnAssumptions, requirementVerdicts } from './verdicts.js';

/** How {@link runSuite} runs one suite's cases. */
export interface SuiteRunOptions {
  /** Cases of this suite in flight at once. */
  concurrency: number;
  baseline: Baseline;
  signal: AbortSignal;
  sides?: readonly string[];
  selection?: Selection;
  /**
   * The run-wide bound on cases in flight, shared with the suites running beside this one, and
   * this suite's rank in the run (an earlier suite gets a freed slot first); a suite alone gets
   * slots of its own, as many as its concurrency.
   */
  slots?: { pool: CaseSlots; rank: number };
}

/**
 * Runs a suite's selected cases with bounded concurrency. Time-bound cases move a clock that
 * every case of the target shares (virtual or hook), and `exclusive` cases touch shared state,
 * so those run one at a time after the rest. Cases of an exclusive group (`exclusive:<group>`,
 * exclusive-group.ts) touch state only their group shares: they too run after the cases that
 * run beside any other, and before those that run alone, each group's cases one at a time in
 * their order, the groups side by side (within the same concurrency). Of the cases that run
 * beside any other, those tagged `starts-early` start first (starts-early.ts). Every case holds
 * one of the run's slots while it runs.
 */
export async function runSuite(rt: SuiteRuntime, cases: CaseDef[], bus: EventBus, opts: SuiteRunOptions): Promise<SuiteResult> {
  const started = performance.now();
  const name = rt.suite.name;
  // its list of cases is made only for a reporter that listens
  if (bus.listening) bus.emit({ type: 'suite-start', suite: name, target: rt.target.description, requirements: rt.suite.requirements, cases: cases.map((c) => ({ id: c.id, requirements: c.requirements })) });
  const results: CaseResult[] = new Array<CaseResult>(cases.length);
  const inFlight = new InFlight(opts.signal);
  // a case is started around the await of its run (and of its slot, when none is free), and
  // finished by a plain function
  const slots = opts.slots ?? { pool: new CaseSlots(Math.max(1, opts.concurrency), opts.signal), rank: 0 };
  const held = async (i: number, release: () => void): Promise<CaseResult> => {
    const def = cases[i] as CaseDef;
    try {
      // once the run is interrupted, the cases left are skipped without starting
      if (!opts.signal.aborted && bus.listening) bus.emit({ type: 'case-start', suite: name, caseId: def.id });
      return await runCase(rt, def, inFlight);
    } finally {
      release();
    }
  };
  const start = (i: number): Promise<CaseResult> => {
    const release = slots.pool.tryAcquire();
    return release ? held(i, release) : slots.pool.acquire(slots.rank).then((r) => held(i, r));
  };
  // a failed case that assumes another rule holds is told only once every case ran: its failures
  // may turn out to be consequences of that rule failing (blocked), never failures of its own
  const deferred: number[] = [];
  const tell = (result: CaseResult): void => {
    if (!bus.listening) return;
    for (const failure of result.failures) bus.emit({ type: 'failure', suite: name, caseId: result.id, failure });
    bus.emit({ type: 'case-finish', suite: name, result });
  };
  const finish = (i: number, result: CaseResult): void => {
    if (result.outcome === 'failed') result.replay = rt.replay(result.id, rt.runSeed, result.property?.path);
    results[i] = result;
    if (result.assumes?.length && result.failures.length) deferred.push(i);
    else {
      const status = opts.baseline.caseStatus(name, result);
      if (status) result.baseline = status;
      tell(result);
    }
  };
  const sharedClock = rt.timeMode === 'virtual' || rt.timeMode === 'hook';
  const free: number[] = [];
  const alone: number[] = [];
  const groups = new Map<string, number[]>();
  cases.forEach((c, i) => {
    if ((sharedClock && isTimeBound(c)) || isExclusive(c)) return void alone.push(i);
    const group = exclusiveGroup(c);
    if (group === undefined) return void free.push(i);
    const members = groups.get(group);
    if (members) members.push(i);
    else groups.set(group, [i]);
  });
  const width = Math.max(1, opts.concurrency);
  let next = 0;
  // the cases tagged starts-early first
  const order = earlyFirst(cases, free);
  const worker = async (): Promise<void> => {
    while (next < order.length) {
      const i = order[next++] as number;
      finish(i, await start(i));
    }
  };
  // a worker takes a whole group and runs its cases in turn
  const serial = [...groups.values()];
  let nextGroup = 0;
  const groupWorker = async (): Promise<void> => {
    while (nextGroup < serial.length) {
      for (const i of serial[nextGroup++] as number[]) finish(i, await start(i));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(width, order.length) }, worker));
    await Promise.all(Array.from({ length: Math.min(width, serial.length) }, groupWorker));
    for (const i of alone) finish(i, await start(i));
  } finally {
    inFlight.close();
  }
  const settled = blockOnAssumptions(results);
  for (const i of deferred) {
    const result = settled[i] as CaseResult;
    const status = opts.baseline.caseStatus(name, result);
    if (status) result.baseline = status;
    results[i] = result;
    tell(result);
  }
  const suite: SuiteResult = {
    name,
    target: rt.target.description,
    cases: results,
    requirements: requirementVerdicts(rt.suite, results, opts.baseline, opts.sides, opts.selection),
    durationMs: performance.now() - started,
    ...(opts.sides ? { sides: [...opts.sides] } : {}),
    ...(opts.selection ? { selection: opts.selection } : {}),
    properties: { target: rt.target.description, seed: String(rt.runSeed), clock: rt.timeMode, ...sideProperty(opts.sides), ...selectionProperty(opts.selection) },
  };
  bus.emit({ type: 'suite-finish', suite: name, result: suite });
  return suite;
}

/**
 * A suite the run reached only after it was interrupted: its target is not started and every
 * selected case is skipped as interrupted, so the reports still list what did not run.
 */
export function interruptedSuite(suite: LoadedSuite, cases: CaseDef[], target: string, bus: EventBus, baseline: Baseline, sides?: readonly string[], selection?: Selection): SuiteResult {
  bus.emit({ type: 'suite-start', suite: suite.name, target, requirements: suite.requirements, cases: cases.map((c) => ({ id: c.id, requirements: c.requirements })) });
  const results = cases.map((c): CaseResult => {
    const result: CaseResult = {
      suite: suite.name,
      id: c.id,
      requirements: c.requirements,
      outcome: 'skipped',
      reason: INTERRUPTED,
      failures: [],
      exchanges: [],
      durationMs: 0,
      location: c.location,
      ...(c.description ? { description: c.description } : {}),
    };
    bus.emit({ type: 'case-finish', suite: suite.name, result });
    return result;
  });
  const result: SuiteResult = {
    name: suite.name,
    target,
    cases: results,
    requirements: requirementVerdicts(suite, results, baseline, sides, selection),
    durationMs: 0,
    ...(sides ? { sides: [...sides] } : {}),
    ...(selection ? { selection } : {}),
    properties: { target, ...sideProperty(sides), ...selectionProperty(selection) },
  };
  bus.emit({ type: 'suite-finish', suite: suite.name, result });
  return result;
}

/**
 * Runs `work` over the items with at most `limit` in flight. A `work` that throws ends nothing
 * else under way: the error is thrown once every worker has stopped (the first, if several), so
 * no suite is left running, its target up, after the run has returned.
 */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}
