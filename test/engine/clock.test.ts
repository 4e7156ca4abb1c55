import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/engine/clock.js';

describe('VirtualClock', () => {
  it('starts where it is told, moves only forward, and shares its time with a clock over its cell', async () => {
    const clock = new VirtualClock(5_000);
    const view = VirtualClock.over(clock.shared);
    expect([clock.now(), view.now()]).toEqual([5_000, 5_000]);
    await clock.advance(1_500);
    expect(view.now()).toBe(6_500);
    // either side may move it: both read one cell
    await view.advance(0.25);
    expect(clock.now()).toBe(6_500.25);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    expect(new VirtualClock().now()).toBe(Date.UTC(2026, 0, 1));
  });

  it('gives each clock a cell of its own', async () => {
    const a = new VirtualClock(0);
    const b = new VirtualClock(0);
    await a.advance(10);
    expect([a.now(), b.now()]).toEqual([10, 0]);
  });
});
