import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookNow, hookSleep } from '../../../src/targets/client-process/clock-hook-client.js';
import { CLIENT_CLOCK_VAR } from '../../../src/targets/client-process/client-clock.js';

/** A stand-in clock hook: /now and /sleep answer the time; /bad/... answers what the path says. */
describe('clock-hook-client', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];
  let t = 1_000_000;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['content-length'] ?? '-'}`);
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname.startsWith('/bad/status')) return void res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ now: t }));
      if (url.pathname.startsWith('/bad/text')) return void res.writeHead(200).end('not json');
      if (url.pathname.endsWith('/sleep')) t += Number(url.searchParams.get('ms'));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ now: t }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('tells the time and sleeps through the hook the launch gives', async () => {
    const env = { [CLIENT_CLOCK_VAR]: base };
    expect(await hookNow(env)).toBe(1_000_000);
    await hookSleep(2500.4, env);
    expect(await hookNow(env)).toBe(1_002_500);
    // the sleep is a POST with an empty body, the time a GET
    expect(seen).toContain('POST /sleep?ms=2500 0');
    expect(seen).toContain('GET /now -');
  });

  it('refuses an answer that is not 2xx or carries no time', async () => {
    await expect(hookNow({ [CLIENT_CLOCK_VAR]: `${base}/bad/status` })).rejects.toMatchObject({ code: 'SG_TARGET_PROTOCOL', message: expect.stringContaining('HTTP 500') });
    await expect(hookSleep(10, { [CLIENT_CLOCK_VAR]: `${base}/bad/text` })).rejects.toMatchObject({ code: 'SG_TARGET_PROTOCOL', message: expect.stringContaining('a sleep') });
  });

  it('uses the real clock without a hook', async () => {
    const before = Date.now();
    const now = await hookNow({});
    expect(now).toBeGreaterThanOrEqual(before);
    const t0 = performance.now();
    await hookSleep(30, {});
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
  });
});
