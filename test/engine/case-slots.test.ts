import { describe, expect, it } from 'vitest';
import { CaseSlots } from '../../src/engine/case-slots.js';

/** Lets every settled promise's callbacks run. */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('CaseSlots', () => {
  it('holds at most its size, and hands a freed slot to the earliest rank that waits', async () => {
    const slots = new CaseSlots(2);
    const a = await slots.acquire(0);
    await slots.acquire(1);
    expect(slots.inFlight).toBe(2);
    const granted: string[] = [];
    void slots.acquire(2).then((free) => (granted.push('rank 2'), free));
    void slots.acquire(1).then((free) => (granted.push('rank 1, first'), free));
    void slots.acquire(1).then((free) => (granted.push('rank 1, second'), free));
    await settle();
    expect(granted).toEqual([]);
    a();
    a(); // freeing twice frees once
    await settle();
    expect(granted).toEqual(['rank 1, first']);
    expect(slots.inFlight).toBe(2);
  });

  it('frees the slot for good once nobody waits', async () => {
    const slots = new CaseSlots(1);
    const free = await slots.acquire(0);
    free();
    expect(slots.inFlight).toBe(0);
    await slots.acquire(5);
    expect(slots.inFlight).toBe(1);
  });

  it('lets a waiter go without a slot when the run is interrupted, and after it nobody waits', async () => {
    const ac = new AbortController();
    const slots = new CaseSlots(1, ac.signal);
    const held = await slots.acquire(0);
    let released = false;
    const waiting = slots.acquire(0).then((free) => ((released = true), free));
    await settle();
    expect(released).toBe(false);
    ac.abort();
    const free = await waiting;
    free();
    expect(slots.inFlight).toBe(1);
    held();
    expect(slots.inFlight).toBe(0);
    // asked once already interrupted: at once, holding nothing
    (await slots.acquire(0))();
    expect(slots.inFlight).toBe(0);
  });

  it('holds a free slot at once without waiting, and holds none when every slot is taken or the run is interrupted', async () => {
    const ac = new AbortController();
    const slots = new CaseSlots(1, ac.signal);
    const free = slots.tryAcquire();
    expect(free).toBeTypeOf('function');
    expect(slots.inFlight).toBe(1);
    expect(slots.tryAcquire()).toBeUndefined();
    expect(slots.inFlight).toBe(1);
    // a waiter is handed the slot freed, so a later try finds none free
    let waited = false;
    const waiting = slots.acquire(0).then((f) => ((waited = true), f));
    free?.();
    expect(slots.tryAcquire()).toBeUndefined();
    (await waiting)();
    expect(waited).toBe(true);
    expect(slots.inFlight).toBe(0);
    ac.abort();
    const none = slots.tryAcquire();
    expect(none).toBeTypeOf('function');
    none?.();
    expect(slots.inFlight).toBe(0);
  });
});
