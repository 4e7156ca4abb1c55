/**
 * How a fuzz run is split for parallel plugin processes while staying exactly replayable.
 *
 * fast-check runs one predicate at a time, so a run of `runs` requests is cut into lanes of
 * LANE_RUNS requests, each an independent fast-check run with its own seed derived from the run
 * seed and the lane index. Which requests a run tries depends on (seed, runs) only, never on the
 * concurrency: workers just take lanes from a queue. When lanes fail, the one with the lowest
 * index is reported (lanes before it are always finished), so the same seed and runs give the
 * same counterexample at any concurrency. A failure is replayed with the lane's own seed and the
 * fast-check path of its shrunk counterexample (`--seed <lane seed> --path <path>`).
 */

/** Requests per lane: small enough to spread over the workers, large enough to amortise a check. */
export const LANE_RUNS = 25;

export interface Lane {
  index: number;
  seed: number;
  runs: number;
}

/**
 * The seed of lane `index`: the run seed itself for lane 0, otherwise a fixed mix of both kept
 * non-negative (it appears in file names and on command lines).
 */
export function laneSeed(seed: number, index: number): number {
  return index === 0 ? seed : (seed + Math.imul(index, 0x9e3779b1)) & 0x7fffffff;
}

/** The lanes of a run of `runs` requests with seed `seed`. */
export function planLanes(seed: number, runs: number): Lane[] {
  const lanes: Lane[] = [];
  for (let start = 0, index = 0; start < runs; start += LANE_RUNS, index++) {
    lanes.push({ index, seed: laneSeed(seed, index), runs: Math.min(LANE_RUNS, runs - start) });
  }
  return lanes;
}

/**
 * Runs `work` on every lane with at most `concurrency` lanes in flight. Once `work` reports a
 * failure for lane k, lanes after k are not started and running ones are told to stop (their
 * results are dropped); lanes before k run to the end. Returns the results by lane index.
 * When `work` throws, every lane is stopped and the first error is rethrown once all settled.
 */
export async function runLanes<R extends { failed: boolean }>(
  lanes: readonly Lane[],
  concurrency: number,
  work: (lane: Lane, stop: AbortSignal) => Promise<R>,
): Promise<Map<number, R>> {
  const results = new Map<number, R>();
  const stops = new Map<number, AbortController>();
  let firstFailure = Number.POSITIVE_INFINITY;
  let next = 0;
  let thrown: { error: unknown } | undefined;

  const worker = async (): Promise<void> => {
    for (;;) {
      const lane = lanes[next++];
      if (!lane || lane.index > firstFailure) return;
      const stop = new AbortController();
      stops.set(lane.index, stop);
      let result: R;
      try {
        result = await work(lane, stop.signal);
      } catch (error) {
        thrown ??= { error };
        firstFailure = -1;
        for (const c of stops.values()) c.abort();
        return;
      } finally {
        stops.delete(lane.index);
      }
      if (stop.signal.aborted) continue;
      results.set(lane.index, result);
      if (result.failed && lane.index < firstFailure) {
        firstFailure = lane.index;
        for (const [index, c] of stops) if (index > firstFailure) c.abort();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, lanes.length)) }, worker));
  if (thrown) throw thrown.error;
  return results;
}
