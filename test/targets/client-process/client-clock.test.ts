import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { CLIENT_CLOCK_VAR, ClientClock, MAX_HOOK_SLEEP_MS } from '../../../src/targets/client-process/client-clock.js';
import { finishClient, withClientHarness } from '../../../src/targets/client-process/harness.js';

/** The clock of a client-process run: real time plus what the application slept through its hook. */

describe('ClientClock', () => {
  it('a sleep moves the clock to the wake time at once; real time keeps running under it', async () => {
    const clock = new ClientClock();
    const real = Date.now();
    const before = clock.now();
    const t = performance.now();
    const woke = await clock.sleep(60_000);
    expect(performance.now() - t).toBeLessThan(1000);
    expect(woke - before).toBeGreaterThanOrEqual(60_000);
    expect(clock.now()).toBeGreaterThanOrEqual(real + 60_000);
  });

  it('two sleeps from the same moment end at the later wake time, not at their sum', async () => {
    const clock = new ClientClock();
    const start = clock.now();
    await Promise.all([clock.sleep(1000), clock.sleep(5000)]);
    const moved = clock.now() - start;
    expect(moved).toBeGreaterThanOrEqual(5000);
    expect(moved).toBeLessThan(6000);
  });

  it('a sleep waits for held work, and time spent on it counts towards the wake time', async () => {
    const clock = new ClientClock();
    let release: () => void = () => undefined;
    const work = clock.hold(new Promise<void>((r) => (release = r)));
    let woke = false;
    const sleeping = clock.sleep(10_000).then(() => (woke = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(woke).toBe(false);
    release();
    await work;
    await sleeping;
    expect(woke).toBe(true);
  });

  it('a held failure does not keep a sleeper waiting', async () => {
    const clock = new ClientClock();
    const failed = clock.hold(Promise.reject(new Error('the person could not act')));
    await expect(failed).rejects.toThrow('could not act');
    const start = clock.now();
    await clock.sleep(2000);
    expect(clock.now() - start).toBeGreaterThanOrEqual(2000);
  });

  it('advance moves it only forward, by a finite amount', async () => {
    const clock = new ClientClock();
    const start = clock.now();
    await clock.advance(3000);
    expect(clock.now() - start).toBeGreaterThanOrEqual(3000);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    await expect(clock.advance(Number.POSITIVE_INFINITY)).rejects.toThrow(RangeError);
  });
});

describe('the clock hook of a client-process run', () => {
  it('every launch gets SPECGATE_CLOCK_URL; a client sleeping through it moves the harness clock, one waiting for real does not', async () => {
    await withClientHarness(new AbortController().signal, async (h) => {
      const start = h.clock.now();
      const script = `
        const url = process.env.${CLIENT_CLOCK_VAR};
        const r = await fetch(url + '/sleep?ms=30000', { method: 'POST' });
        const slept = await r.json();
        const n = await (await fetch(url + '/now')).json();
        console.log(JSON.stringify({ status: r.status, slept: slept.now, now: n.now }));`;
      const client = h.launch(['node', '--input-type=module', '-e', script], {});
      const done = await finishClient(await waitExit(client));
      const out = JSON.parse(done.stdout.trim()) as { status: number; slept: number; now: number };
      expect(out.status).toBe(200);
      expect(out.slept - start).toBeGreaterThanOrEqual(30_000);
      expect(out.now).toBeGreaterThanOrEqual(out.slept);
      expect(h.clock.now() - start).toBeGreaterThanOrEqual(30_000);
      // under a minute of real time passed: the 30 s were slept on the hook
      expect(h.clock.now() - start).toBeLessThan(60_000);
    });
  });

  it('answers 400 to a sleep without a usable ms and 404 elsewhere, saying what it takes', async () => {
    await withClientHarness(new AbortController().signal, async (h) => {
      const script = `console.log(process.env.${CLIENT_CLOCK_VAR})`;
      const client = h.launch(['node', '-e', script], {});
      const url = (await finishClient(await waitExit(client))).stdout.trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const bad of ['', '?ms=', '?ms=-5', '?ms=abc', `?ms=${MAX_HOOK_SLEEP_MS + 1}`]) {
        const res = await request(`${url}/sleep${bad}`, { method: 'POST' });
        expect(res.statusCode, bad).toBe(400);
        expect(((await res.body.json()) as { error: string }).error).toMatch(/ms must be a number of milliseconds/);
      }
      const other = await request(`${url}/tick`);
      expect(other.statusCode).toBe(404);
      expect(((await other.body.json()) as { error: string }).error).toContain('GET /now and POST /sleep?ms=N');
    });
  });
});

async function waitExit<T extends { exit(): unknown }>(client: T): Promise<T> {
  for (let i = 0; i < 200 && !client.exit(); i++) await new Promise((r) => setTimeout(r, 25));
  return client;
}
