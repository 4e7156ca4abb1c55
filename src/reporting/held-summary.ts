/**
 * The console's end-of-run summary, held back until the run's files are written: its last line
 * is the exit code, and a report that cannot be written changes the exit code, so the summary
 * waits for the writes and says the code the process really ends with, once.
 */
import type { RunResult, RunSummary } from '../engine/model.js';
import { asSpecgateError, exitCodeFor, type SpecgateError } from '../errors.js';
import type { Reporter } from './reporter.js';

/** A console reporter whose summary waits for {@link HeldSummary.release}. */
export interface HeldSummary {
  /** Gets every event but `run-finish`, which it keeps. */
  reporter: Reporter;
  /**
   * Prints the summary of the kept run with the exit code the process ends with, and returns
   * that code: the run's own, or, when some output could not be written, the code of that error
   * (an interrupted run keeps 130 or 143: it was stopped, whatever else went wrong).
   */
  release(unwritten: readonly SpecgateError[]): Promise<number>;
}

/** The run's summary once `unwritten` outputs are known: the exit code and the verdict line that explains it. */
export function finalSummary(summary: RunSummary, unwritten: readonly SpecgateError[]): RunSummary {
  const first = unwritten[0];
  if (!first || summary.exitCode === 130 || summary.exitCode === 143) return summary;
  const what = unwritten.length === 1 ? 'an output could not be written' : `${unwritten.length} outputs could not be written`;
  return { ...summary, exitCode: exitCodeFor(first.code), verdict: `${summary.verdict}; but ${what} (the error above says which and why)` };
}

/** Holds `inner`'s summary; without a kept run (the run stopped before finishing) release only finishes it. */
export function holdSummary(inner: Reporter): HeldSummary {
  let kept: RunResult | undefined;
  return {
    reporter: {
      onEvent(e) {
        if (e.type === 'run-finish') kept = e.result;
        else inner.onEvent(e);
      },
      // the summary is printed by release(); finishing before it would clear nothing useful
      finish: async () => undefined,
    },
    async release(unwritten) {
      const result = kept;
      if (!result) {
        await inner.finish();
        return unwritten[0] ? exitCodeFor(unwritten[0].code) : 0;
      }
      const summary = finalSummary(result.summary, unwritten);
      inner.onEvent({ type: 'run-finish', result: summary === result.summary ? result : { ...result, summary } });
      await inner.finish();
      return summary.exitCode;
    },
  };
}

/** Finishes every file reporter, each whatever the others do; returns the errors of those that could not write. */
export async function finishWriters(writers: readonly Reporter[]): Promise<SpecgateError[]> {
  const settled = await Promise.allSettled(writers.map((r) => r.finish()));
  return settled.flatMap((w) => (w.status === 'rejected' ? [asSpecgateError(w.reason, 'SG_CONFIG')] : []));
}
