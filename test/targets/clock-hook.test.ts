import { describe, expect, it } from 'vitest';
import { SpecgateError } from '../../src/errors.js';
import { createHookClock } from '../../src/targets/clock-hook.js';

describe('hook clock', () => {
  it('calls the hook and moves now() by what the target acknowledged', async () => {
    const sent: number[] = [];
    const clock = createHookClock(async (ms) => {
      sent.push(ms);
    });
    expect(clock.kind).toBe('hook');
    const before = clock.now();
    expect(Math.abs(before - Date.now())).toBeLessThan(50);
    await clock.advance(900_000);
    await clock.advance(5_000);
    expect(sent).toEqual([900_000, 5_000]);
    const drift = clock.now() - Date.now();
    expect(drift).toBeGreaterThanOrEqual(905_000 - 5);
    expect(drift).toBeLessThanOrEqual(905_000 + 5);
  });

  it('does not count an advance the hook failed, and says where to look', async () => {
    let fail = true;
    const clock = createHookClock(async () => {
      if (fail) throw new Error('404 Not Found');
    });
    const err = await clock.advance(1000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecgateError);
    expect((err as SpecgateError).code).toBe('SG_TARGET_PROTOCOL');
    expect((err as SpecgateError).message).toMatch(/clock\.advance in the target profile/);
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(50);
    fail = false;
    await clock.advance(2000);
    expect(clock.now() - Date.now()).toBeGreaterThanOrEqual(1995);
  });

  it('keeps typed errors from the hook as they are', async () => {
    const typed = new SpecgateError('SG_TARGET_UNREACHABLE', 'down');
    const clock = createHookClock(() => Promise.reject(typed));
    await expect(clock.advance(1)).rejects.toBe(typed);
  });

  it('runs overlapping advances one after another, in call order', async () => {
    const events: string[] = [];
    const clock = createHookClock(async (ms) => {
      events.push(`start ${ms}`);
      await new Promise((r) => setTimeout(r, ms === 30 ? 30 : 1));
      events.push(`end ${ms}`);
    });
    await Promise.all([clock.advance(30), clock.advance(1)]);
    expect(events).toEqual(['start 30', 'end 30', 'start 1', 'end 1']);
  });

  it('refuses to go backwards and honours an aborted signal', async () => {
    const clock = createHookClock(async () => undefined);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    await expect(clock.advance(Number.NaN)).rejects.toThrow(RangeError);
    const ac = new AbortController();
    const reason = new Error('stop');
    ac.abort(reason);
    await expect(clock.advance(10, ac.signal)).rejects.toBe(reason);
  });
});
