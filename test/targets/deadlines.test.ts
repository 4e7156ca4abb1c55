import { getActiveResourcesInfo } from 'node:process';
import { describe, expect, it } from 'vitest';
import { Deadlines, type DeadlineEntry } from '../../src/targets/deadlines.js';

/** An entry that records when it expired, in ms after `origin`. */
function entry(durationMs: number, log: string[], name: string, origin: number, at: number[] = []): DeadlineEntry {
  return {
    at: 0,
    durationMs,
    prev: undefined,
    next: undefined,
    expire: () => {
      log.push(name);
      at.push(performance.now() - origin);
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const timers = (): number => getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('Deadlines', () => {
  it('expires each entry once its duration has passed, never before, earliest deadline first across durations', async () => {
    const q = new Deadlines();
    const log: string[] = [];
    const origin = performance.now();
    const at: number[] = [];
    q.add(entry(60, log, 'long', origin, at), origin);
    q.add(entry(20, log, 'short', origin, at), origin);
    q.add(entry(40, log, 'middle', origin, at), origin);
    await sleep(120);
    expect(log).toEqual(['short', 'middle', 'long']);
    // each no earlier than its own duration after it was added
    expect(at[0]).toBeGreaterThanOrEqual(20);
    expect(at[1]).toBeGreaterThanOrEqual(40);
    expect(at[2]).toBeGreaterThanOrEqual(60);
  });

  it('never expires a removed entry, and expires the others of its duration in the order they were added', async () => {
    const q = new Deadlines();
    const log: string[] = [];
    const origin = performance.now();
    const first = entry(30, log, 'first', origin);
    const second = entry(30, log, 'second', origin);
    const third = entry(30, log, 'third', origin);
    q.add(first);
    q.add(second);
    q.add(third);
    q.remove(second);
    // removing twice, or removing what was never added, changes nothing
    q.remove(second);
    q.remove(entry(30, log, 'stranger', origin));
    await sleep(80);
    expect(log).toEqual(['first', 'third']);
    // an expired entry removed afterwards (its work ended at the same time) is no error
    q.remove(first);
  });

  it('holds no timer once every entry was removed or expired, so it never keeps the process alive', async () => {
    const before = timers();
    const q = new Deadlines();
    const log: string[] = [];
    const a = entry(10_000, log, 'a', 0);
    const b = entry(10_000, log, 'b', 0);
    q.add(a);
    q.add(b);
    expect(timers()).toBe(before + 1);
    q.remove(a);
    expect(timers()).toBe(before + 1);
    q.remove(b);
    expect(timers()).toBe(before);
    q.add(entry(5, log, 'c', 0));
    await sleep(40);
    expect(log).toEqual(['c']);
    // once it expired, the queue holds no timer: the next entry makes one (other timers of the
    // test runner come and go meanwhile, so the count is compared around this call only)
    const after = timers();
    const d = entry(10_000, log, 'd', 0);
    q.add(d);
    expect(timers()).toBe(after + 1);
    q.remove(d);
    expect(timers()).toBe(after);
  });

  it('lets an expiry add and remove entries', async () => {
    const q = new Deadlines();
    const log: string[] = [];
    const later = entry(15, log, 'later', 0);
    const doomed = entry(50, log, 'doomed', 0);
    q.add(doomed);
    q.add({ ...entry(10, log, 'first', 0), expire: () => { log.push('first'); q.add(later); q.remove(doomed); } });
    await sleep(90);
    expect(log).toEqual(['first', 'later']);
  });
});
