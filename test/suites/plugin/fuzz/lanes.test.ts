import { describe, expect, it } from 'vitest';
import { LANE_RUNS, laneSeed, planLanes, runLanes, type Lane } from '../../../../suites/plugin/fuzz/lanes.js';

describe('fuzz lanes', () => {
  it('split runs into lanes that depend on seed and runs only', () => {
    const lanes = planLanes(7, LANE_RUNS * 2 + 3);
    expect(lanes.map((l) => l.runs)).toEqual([LANE_RUNS, LANE_RUNS, 3]);
    expect(lanes[0]?.seed).toBe(7);
    expect(new Set(lanes.map((l) => l.seed)).size).toBe(3);
    expect(lanes.every((l) => l.seed >= 0)).toBe(true);
    expect(planLanes(7, LANE_RUNS * 2 + 3)).toEqual(lanes);
    expect(laneSeed(8, 1)).not.toBe(laneSeed(7, 1));
  });

  it('report the lowest failing lane whatever the concurrency and timing', async () => {
    const lanes = planLanes(1, LANE_RUNS * 8);
    const failing = new Set([3, 5, 6]);
    for (const concurrency of [1, 2, 3, 8]) {
      // Later lanes finish sooner, so lane 5 or 6 fails first in time.
      const results = await runLanes(lanes, concurrency, async (lane: Lane, stop) => {
        await new Promise((r) => setTimeout(r, (8 - lane.index) * 5));
        return { failed: !stop.aborted && failing.has(lane.index), index: lane.index };
      });
      const firstFailed = [...results.values()].filter((r) => r.failed).map((r) => r.index).sort((a, b) => a - b)[0];
      expect(firstFailed).toBe(3);
      // Every lane before the first failure ran to completion.
      for (const i of [0, 1, 2]) expect(results.get(i)?.failed).toBe(false);
    }
  });

  it('do not start lanes after a failure when running one at a time', async () => {
    const lanes = planLanes(1, LANE_RUNS * 6);
    const started: number[] = [];
    await runLanes(lanes, 1, async (lane) => {
      started.push(lane.index);
      return { failed: lane.index === 2 };
    });
    expect(started).toEqual([0, 1, 2]);
  });
});

describe('fuzz lanes when work throws', () => {
  it('stop the other lanes and rethrow the error', async () => {
    const lanes = planLanes(1, LANE_RUNS * 10);
    const started: number[] = [];
    let stoppedSeen = 0;
    const run = runLanes(lanes, 2, async (lane, stop) => {
      started.push(lane.index);
      if (lane.index === 1) throw new Error('cannot start');
      await new Promise((r) => setTimeout(r, 30));
      if (stop.aborted) stoppedSeen++;
      return { failed: false };
    });
    await expect(run).rejects.toThrow('cannot start');
    expect(started).toEqual([0, 1]);
    expect(stoppedSeen).toBe(1);
  });
});
