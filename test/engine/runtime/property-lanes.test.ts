import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpecgateError } from '../../../src/errors.js';
import { runProperty, type PropertyAttempt } from '../../../src/engine/runtime/property.js';
import { valuesOf } from '../../../src/engine/runtime/property-lanes.js';

const signal = new AbortController().signal;
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 1));

/** Fails for values over `limit`, after a pause, so that runs overlap when they may. */
function over(limit: number): PropertyAttempt<number> {
  return async (v) => {
    await tick();
    return v > limit ? [{ requirement: 'X', message: `${v} is over ${limit}` }] : [];
  };
}

describe('property runs side by side', () => {
  it('meets the values fast-check tries, examples first, in its order', async () => {
    const arb = fc.integer({ min: 0, max: 1000 });
    const seen: number[] = [];
    await runProperty(arb, async (v) => (seen.push(v), []), { seed: 11, runs: 20, signal, examples: [5000, 6000] });
    expect(valuesOf(arb, { seed: 11, numRuns: 20, examples: [[5000], [6000]] })).toEqual(seen);
  });

  it('reports the failure, path, counterexample and shrinks the runs in turn report', async () => {
    for (const seed of [1, 2, 3, 42, 9001]) {
      const arb = fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 8 });
      const attempt: PropertyAttempt<number[]> = async (v) => {
        await tick();
        return v.reduce((a, b) => a + b, 0) > 9000 ? [{ requirement: 'X', message: `sum of ${v.length}` }] : [];
      };
      const inTurn = await runProperty(arb, attempt, { seed, runs: 60, signal });
      const sideBySide = await runProperty(arb, attempt, { seed, runs: 60, signal, width: 4 });
      expect(inTurn.failed).toBe(true);
      expect(sideBySide).toEqual(inTurn);
    }
  });

  it('finds a failing example at the same path as the runs in turn', async () => {
    const opts = { seed: 5, runs: 30, signal, examples: [10, 20_000] };
    const inTurn = await runProperty(fc.integer({ min: 0, max: 100 }), over(1000), opts);
    const sideBySide = await runProperty(fc.integer({ min: 0, max: 100 }), over(1000), { ...opts, width: 3 });
    expect(sideBySide).toEqual(inTurn);
    expect(sideBySide.path?.startsWith('1')).toBe(true);
  });

  it('has at most `width` runs under way, each in a lane of its own', async () => {
    let now = 0;
    let most = 0;
    const lanes = new Set<number>();
    const attempt: PropertyAttempt<number> = async (_v, { lane }) => {
      expect(lanes.has(lane)).toBe(false);
      lanes.add(lane);
      most = Math.max(most, ++now);
      await tick();
      now--;
      lanes.delete(lane);
      return [];
    };
    const outcome = await runProperty(fc.integer(), attempt, { seed: 3, runs: 40, signal, width: 4 });
    expect(outcome).toEqual({ failed: false, runs: 40, failures: [] });
    expect(most).toBe(4);
  });

  it('reports the earliest failing run although a later one ended first', async () => {
    // run 3 (index 2) fails slowly, run 5 fails at once
    const values: number[] = [];
    const arb = fc.integer({ min: 0, max: 1_000_000 });
    const attempt: PropertyAttempt<number> = async (v) => {
      const i = values.push(v) - 1;
      if (i === 2) {
        await new Promise((r) => setTimeout(r, 30));
        return [{ requirement: 'X', message: 'slow' }];
      }
      return i === 4 ? [{ requirement: 'Y', message: 'fast' }] : [];
    };
    const outcome = await runProperty(arb, attempt, { seed: 8, runs: 20, signal, width: 4, shrink: false });
    expect(outcome.failed).toBe(true);
    expect(outcome.path).toBe('2');
    expect(outcome.runs).toBe(3);
    expect(outcome.failures.map((f) => f.message)).toEqual(['slow']);
  });

  it('does not make the failing run again before shrinking it', async () => {
    let calls = 0;
    const outcome = await runProperty(fc.constant(7), async () => (calls++, [{ requirement: 'X', message: 'always' }]), { seed: 1, runs: 10, signal, width: 2 });
    expect(outcome.failed).toBe(true);
    // two lanes each made one run (the second was under way when the first failed); a constant does not shrink
    expect(calls).toBe(2);
  });

  it('throws a fault of an earlier run than any finding, saying which run it was', async () => {
    let i = 0;
    const attempt: PropertyAttempt<number> = async () => {
      const n = i++;
      await tick();
      if (n === 3) throw new SpecgateError('SG_TARGET_UNREACHABLE', 'connection refused');
      return n === 6 ? [{ requirement: 'X', message: 'late' }] : [];
    };
    await expect(runProperty(fc.integer(), attempt, { seed: 2, runs: 30, signal, width: 2 })).rejects.toThrow(/connection refused \(property run 4 of 30, the 3 runs before it passed/);
  });

  it('ends with the case stop once the case is stopped', async () => {
    const stop = new AbortController();
    let made = 0;
    const attempt: PropertyAttempt<number> = async () => {
      if (++made === 5) stop.abort(new SpecgateError('SG_CASE_TIMEOUT', 'the case timed out'));
      await tick();
      return [];
    };
    await expect(runProperty(fc.integer(), attempt, { seed: 2, runs: 100, signal: stop.signal, width: 3 })).rejects.toThrow(/the case timed out/);
    expect(made).toBeLessThan(10);
  });

  it('answers once the first failing run is known, leaving later runs to end on their own', async () => {
    let i = 0;
    let ended = 0;
    const attempt: PropertyAttempt<number> = async () => {
      const n = i++;
      if (n === 0) return [{ requirement: 'X', message: 'first' }];
      await new Promise((r) => setTimeout(r, 50));
      ended++;
      return [];
    };
    const outcome = await runProperty(fc.integer(), attempt, { seed: 4, runs: 20, signal, width: 4, shrink: false });
    // the three runs beside the first were under way, and had not ended
    expect([outcome.failed, outcome.path, i, ended]).toEqual([true, '0', 4, 0]);
    await new Promise((r) => setTimeout(r, 80));
    expect(ended).toBe(3);
  });

  it('commits runs in order, up to the first that failed, whatever order they end in', async () => {
    const committed: number[] = [];
    const attempt: PropertyAttempt<number> = async (_v, { index }) => {
      await new Promise((r) => setTimeout(r, (7 - (index % 7)) * 3));
      return index === 9 ? [{ requirement: 'X', message: 'ninth' }] : [];
    };
    const outcome = await runProperty(fc.integer(), attempt, { seed: 4, runs: 30, signal, width: 4, shrink: false, onCommit: (i) => committed.push(i) });
    expect(outcome.path).toBe('9');
    expect(committed).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('reports the value the failing run saw, as the run left it', async () => {
    const arb = fc.record({ log: fc.constant(null).map(() => [] as string[]) });
    const attempt: PropertyAttempt<{ log: string[] }> = async (v) => {
      v.log.push('touched');
      return [{ requirement: 'X', message: 'always' }];
    };
    const inTurn = await runProperty(arb, attempt, { seed: 3, runs: 5, signal });
    const sideBySide = await runProperty(arb, attempt, { seed: 3, runs: 5, signal, width: 2 });
    expect(sideBySide.counterexample).toEqual(inTurn.counterexample);
    expect(sideBySide.counterexample).toEqual({ log: ['touched'] });
  });

  it('replays a path one run after another, the same as the runs in turn', async () => {
    const first = await runProperty(fc.integer({ min: 0, max: 5000 }), over(4000), { seed: 21, runs: 50, signal, width: 4 });
    expect(first.failed).toBe(true);
    const replay = await runProperty(fc.integer({ min: 0, max: 5000 }), over(4000), { seed: 21, runs: 50, signal, width: 4, path: first.path });
    expect(replay.counterexample).toBe(first.counterexample);
  });
});
