import type { RunResult } from '../src/engine/model.js';
import { run, type RunOptions } from '../src/engine/run.js';
import { formatFigure, summarize } from './rounds.js';

/** One engine run, timed: its result, its wall time, and the part of it spent loading the suites (ms). */
export interface TimedRun {
  result: RunResult;
  ms: number;
  /** From the call of `run` to `onLoaded` (the suites loaded and checked); NaN if it was never told. */
  loadMs: number;
}

/**
 * Runs the engine as {@link run} does and times it, loading apart: `onLoaded` is told once the
 * suites are loaded, before the run checks its targets and selects its cases, and adds no
 * listener to the run's events, so the run timed does the same work as one not timed.
 */
export async function timedRun(opts: Omit<RunOptions, 'onLoaded'>): Promise<TimedRun> {
  let loadMs = Number.NaN;
  const t = performance.now();
  const result = await run({
    ...opts,
    onLoaded: () => {
      loadMs = performance.now() - t;
    },
  });
  return { result, ms: performance.now() - t, loadMs };
}

/**
 * The two figures printed beside a ratio of whole runs, from the same rounds: the median time
 * loading took (`loads`), and the ratio of the rest of each run (`runs`, less its loading) to the
 * bare side of its round (`bares`), which loads nothing. `rest` names that ratio after `label`.
 */
export function loadingFigures(label: string, loads: readonly number[], runs: readonly number[], bares: readonly number[], rest: string): string[] {
  return [
    formatFigure(`  ${label}, loading the suite`, summarize(loads), { name: 'median', unit: ' ms', digits: 1 }),
    formatFigure(`  ${label}, ${rest}`, summarize(runs.map((ms, i) => (ms - (loads[i] ?? Number.NaN)) / (bares[i] ?? Number.NaN)))),
  ];
}
