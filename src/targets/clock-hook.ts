import type { ClockControl } from '../engine/clock.js';
import { SpecgateError, isSpecgateError } from '../errors.js';

/** Asks the target to move its clock forward by `ms` (the profile's `clock.advance` request). */
export type ClockHookSend = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * A clock for an external target that offers a clock-control hook (DESIGN "Time": a documented
 * optional extension). `advance(ms)` calls the hook; `now()` is real time plus every advance
 * the target acknowledged, so expiries computed by the harness match the target's view.
 * Advances run one after another: two overlapping hook calls could reach the target in either
 * order, and the offset must only count what the target confirmed.
 */
export function createHookClock(send: ClockHookSend): ClockControl {
  let offset = 0;
  let queue: Promise<unknown> = Promise.resolve();

  async function advanceNow(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    try {
      await send(ms, signal);
    } catch (e) {
      if (isSpecgateError(e) || signal?.aborted) throw e;
      throw new SpecgateError(
        'SG_TARGET_PROTOCOL',
        `the clock-control hook failed while advancing ${ms} ms: ${e instanceof Error ? e.message : String(e)}; check clock.advance in the target profile`,
        { ms },
        { cause: e },
      );
    }
    offset += ms;
  }

  return {
    kind: 'hook',
    now: () => Date.now() + offset,
    advance(ms: number, signal?: AbortSignal): Promise<void> {
      if (!(ms >= 0) || !Number.isFinite(ms)) {
        return Promise.reject(new RangeError(`cannot move a clock by ${ms} ms (only forward, by a finite amount)`));
      }
      const run = queue.then(() => advanceNow(ms, signal));
      // A failed advance must not block the ones queued after it.
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
