import { describe, expect, it } from 'vitest';
import { isSpecgateError } from '../../src/errors.js';
import { Throttle, retryAfterMs, throttleWait, type ThrottleTimers } from '../../src/targets/throttle.js';
import type { HttpRequest, HttpResponse } from '../../src/targets/types.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

function answer(status: number, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers, bodyBytes: new Uint8Array(), bodyText: '', body: undefined, durationMs: 1 };
}

/** Timers on a clock that only moves when something sleeps; every sleep is recorded. */
function fakeTimers(): ThrottleTimers & { slept: number[] } {
  let now = NOW;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

/** A target that gives the answers in order, then 200s; counts what it was sent. */
function target(...answers: HttpResponse[]): { send: () => Promise<HttpResponse>; sent: () => number } {
  let sent = 0;
  return {
    send: () => Promise.resolve(answers[sent++] ?? answer(200)),
    sent: () => sent,
  };
}

const REQ: HttpRequest = { method: 'GET', url: 'http://127.0.0.1:9/items', headers: {} };

async function rejection(p: Promise<unknown>): Promise<Error & { code?: string; details?: unknown }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error('expected a rejection');
}

describe('throttleWait', () => {
  it('reads Retry-After as seconds or as an HTTP date, on 429 and 503', () => {
    expect(throttleWait(answer(429, { 'retry-after': '7' }), 0, NOW)).toBe(7000);
    expect(throttleWait(answer(503, { 'retry-after': ' 2 ' }), 0, NOW)).toBe(2000);
    expect(throttleWait(answer(429, { 'retry-after': new Date(NOW + 90_000).toUTCString() }), 0, NOW)).toBe(90_000);
    // a date already past asks for no wait
    expect(throttleWait(answer(429, { 'retry-after': new Date(NOW - 5000).toUTCString() }), 0, NOW)).toBe(0);
  });

  it('backs a 429 without Retry-After off 1 s, 2 s, 4 s', () => {
    expect([0, 1, 2].map((attempt) => throttleWait(answer(429), attempt, NOW))).toEqual([1000, 2000, 4000]);
    // an unreadable Retry-After is as good as none
    expect(throttleWait(answer(429, { 'retry-after': 'soon' }), 0, NOW)).toBe(1000);
  });

  it('leaves every other answer alone: a 503 without Retry-After is an answer like any other', () => {
    for (const status of [200, 204, 304, 400, 401, 403, 404, 500, 503]) expect(throttleWait(answer(status), 0, NOW)).toBeUndefined();
    expect(throttleWait(answer(200, { 'retry-after': '5' }), 0, NOW)).toBeUndefined();
  });

  it('does not take a bare number for a date', () => {
    expect(retryAfterMs('12.5', NOW)).toBeUndefined();
    expect(retryAfterMs('-3', NOW)).toBeUndefined();
  });
});

describe('Throttle', () => {
  it('waits out throttling answers within the budget and returns the answer that came after', async () => {
    const timers = fakeTimers();
    const t = target(answer(429, { 'retry-after': '2' }), answer(503, { 'retry-after': '1' }), answer(429));
    const res = await new Throttle({ maxWaitMs: 10_000 }, timers).send(REQ, undefined, () => 'GET /items', t.send);
    expect(res.status).toBe(200);
    expect(t.sent()).toBe(4);
    // the third throttling answer has no Retry-After: third attempt, 4 s
    expect(timers.slept).toEqual([2000, 1000, 4000]);
  });

  it('ends in SG_TARGET_THROTTLED, naming what the target said, once the waits would pass the budget', async () => {
    const timers = fakeTimers();
    const t = target(answer(429, { 'retry-after': '2' }), answer(429, { 'retry-after': '3600' }));
    const err = await rejection(new Throttle({ maxWaitMs: 30_000 }, timers).send(REQ, undefined, () => 'GET http://127.0.0.1:9/items', t.send));
    expect(isSpecgateError(err) && err.code).toBe('SG_TARGET_THROTTLED');
    expect(err.message).toContain('GET http://127.0.0.1:9/items');
    expect(err.message).toContain('429 with Retry-After: 3600');
    expect(err.message).toContain('--max-wait 30 s');
    expect(err.message).toMatch(/--rate/);
    // it waited the first 2 s, not the hour
    expect(timers.slept).toEqual([2000]);
  });

  it('sends nothing more to an origin that asked for longer than the budget, until that time has passed', async () => {
    const timers = fakeTimers();
    const throttle = new Throttle({ maxWaitMs: 5_000 }, timers);
    const first = target(answer(429, { 'retry-after': '60' }));
    await rejection(throttle.send(REQ, undefined, () => 'GET /items', first.send));
    const later = target();
    const err = await rejection(throttle.send({ ...REQ, url: 'http://127.0.0.1:9/other' }, undefined, () => 'GET /other', later.send));
    expect(isSpecgateError(err) && err.code).toBe('SG_TARGET_THROTTLED');
    expect(err.message).toContain('GET /other was not sent');
    expect(later.sent()).toBe(0);
    // another origin is not held up
    const elsewhere = target();
    expect((await throttle.send({ ...REQ, url: 'http://127.0.0.2:9/items' }, undefined, () => 'GET', elsewhere.send)).status).toBe(200);
    // once the time has (nearly) passed, a request waits the rest and goes
    await timers.sleep(57_000, undefined);
    const after = target();
    expect((await throttle.send(REQ, undefined, () => 'GET /items', after.send)).status).toBe(200);
    expect(timers.slept.at(-1)).toBe(3000);
  });

  it('with --max-wait 0 never waits', async () => {
    const timers = fakeTimers();
    const t = target(answer(503, { 'retry-after': '1' }));
    const err = await rejection(new Throttle({ maxWaitMs: 0 }, timers).send(REQ, undefined, () => 'GET /items', t.send));
    expect(isSpecgateError(err) && err.code).toBe('SG_TARGET_THROTTLED');
    expect(timers.slept).toEqual([]);
  });

  it('paces requests at the run\'s rate, shared by all of them', async () => {
    const timers = fakeTimers();
    const throttle = new Throttle({ maxWaitMs: 0, ratePerSecond: 4 }, timers);
    const sentAt: number[] = [];
    const send = (): Promise<HttpResponse> => {
      sentAt.push(timers.now());
      return Promise.resolve(answer(200));
    };
    for (let i = 0; i < 4; i++) await throttle.send(REQ, undefined, () => 'GET /items', send);
    expect(sentAt.map((t) => t - NOW)).toEqual([0, 250, 500, 750]);
  });

  it('stops waiting when the request is stopped (its case timed out), with the stop\'s reason', async () => {
    const ac = new AbortController();
    const throttle = new Throttle({ maxWaitMs: 60_000 });
    const t = target(answer(429, { 'retry-after': '30' }));
    const pending = rejection(throttle.send(REQ, ac.signal, () => 'GET /items', t.send));
    setTimeout(() => ac.abort(new Error('case over')), 20);
    const started = Date.now();
    expect((await pending).message).toBe('case over');
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
