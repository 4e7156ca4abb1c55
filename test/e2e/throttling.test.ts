/**
 * A rate limit is not conformance: a correct greeting service behind a rate-limiting front
 * answers some requests 429 (or 503 with Retry-After). Waits within --max-wait are waited out
 * and the verdicts are those of the service alone; a limit past the budget makes the cases it
 * stops untested "throttled" (never failed, never a regression case); --rate paces the run.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_HOOK, assertBuilt, demoSection, reportOf, runDemo, statusMap, tempDir, writeProfile } from './cli.js';
import { CONFORMANT } from './demo-verdicts.js';
import { faultServers } from './fault-server.js';

/** How the front answers the `n`th request (1-based) for `path`, or undefined to pass it on. */
type Limit = (n: number, path: string) => { status: number; headers: Record<string, string> } | undefined;

interface Front {
  url: string;
  /** Arrival times (ms) of the requests passed on, and how many were refused. */
  passed: number[];
  refused: number;
}

const NO_HEADERS: Record<string, string> = {};

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A rate-limiting front for `upstream`; the clock hook always goes through. */
async function rateLimitedFront(upstream: string, limit: Limit): Promise<Front> {
  const front: Front = { url: '', passed: [], refused: 0 };
  const seen = new Map<string, number>();
  let all = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const body = await bodyOf(req);
      if (!path.startsWith('/__clock')) {
        all += 1;
        seen.set(path, (seen.get(path) ?? 0) + 1);
        const refusal = limit(all, path) ?? limit(-(seen.get(path) ?? 0), path);
        if (refusal) {
          front.refused += 1;
          res.writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers });
          return void res.end('{"error":"rate limited"}');
        }
        front.passed.push(performance.now());
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection'));
      const up = await request(`${upstream}${req.url ?? '/'}`, { method: req.method as 'GET', headers, body: body.length ? body : null });
      const answer = Buffer.from(await up.body.arrayBuffer());
      const out = Object.fromEntries(Object.entries(up.headers).filter(([k]) => k !== 'transfer-encoding' && k !== 'connection'));
      res.writeHead(up.statusCode, out);
      res.end(answer);
    })().catch((e: unknown) => res.destroy(e as Error));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return front;
}

const start = faultServers();
const tmp = tempDir();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

async function runBehind(front: Front, name: string, args: string[]): Promise<Awaited<ReturnType<typeof runDemo>>> {
  const profile = writeProfile(tmp.dir, name, { suites: { demo: demoSection(front.url, { clock: CLOCK_HOOK }) } });
  return runDemo(tmp.dir, ['--target', profile, '--regressions', join(tmp.dir, `${name}-regressions`), ...args]);
}

describe('throttling answers within --max-wait', () => {
  it('are waited out: the verdicts are those of the service behind the limit', async () => {
    const service = await start('none');
    // by request count: the 3rd request 503 with Retry-After: 1, the 5th 429 without Retry-After
    // (backed off 1 s); by path (negative n): the first request of every path 429, Retry-After: 1
    const limit: Limit = (n) => {
      if (n === 3) return { status: 503, headers: { 'retry-after': '1' } };
      if (n === 5) return { status: 429, headers: NO_HEADERS };
      if (n === -1) return { status: 429, headers: { 'retry-after': '1' } };
      return undefined;
    };
    const front = await rateLimitedFront(service.url, limit);
    const run = await runBehind(front, 'waited', []);
    const report = reportOf(run);
    expect(front.refused).toBeGreaterThanOrEqual(4);
    expect(statusMap(report)).toEqual(CONFORMANT);
    expect(run.code).toBe(0);
    expect(report.suites.flatMap((s) => s.cases).filter((c) => c.errorCode !== null)).toEqual([]);
  }, 120_000);
});

describe('a limit past --max-wait', () => {
  let run: Awaited<ReturnType<typeof runDemo>>;
  let front: Front;
  beforeAll(async () => {
    const service = await start('none');
    // the first four requests go through; after them the front asks to come back in an hour
    front = await rateLimitedFront(service.url, (n) => (n > 4 ? { status: 429, headers: { 'retry-after': '3600' } } : undefined));
    run = await runBehind(front, 'hour', ['--concurrency', '2']);
  }, 120_000);

  it('leaves the cases it stopped untested "throttled", with what the target said, never failed', () => {
    const report = reportOf(run);
    const cases = report.suites.flatMap((s) => s.cases);
    const throttled = cases.filter((c) => c.errorCode === 'SG_TARGET_THROTTLED');
    expect(throttled.length).toBeGreaterThan(0);
    for (const c of throttled) {
      expect(c.outcome).toBe('skipped');
      expect(c.reason).toMatch(/^throttled: .*429 with Retry-After: 3600.*--max-wait 30 s/);
    }
    expect(cases.filter((c) => c.outcome === 'failed' || c.outcome === 'errored')).toEqual([]);
    expect(report.requirements.filter((r) => r.status === 'failed')).toEqual([]);
    const untested = report.requirements.filter((r) => r.status === 'untested' && CONFORMANT[r.id] === 'passed');
    expect(untested.length).toBeGreaterThan(0);
    for (const r of untested) expect(r.reason).toContain('throttled');
  });

  it('says so in the verdict and on the console, and writes no regression case', () => {
    const report = reportOf(run);
    expect(report.summary.verdict).toMatch(/\d+ case\(s\) throttled by the target and untested: pace the run with --rate/);
    expect(run.stdout).toContain('throttled by the target');
    expect(existsSync(join(tmp.dir, 'hour-regressions'))).toBe(false);
    // not a fault of the harness or the target: not exit 3
    expect(run.code).not.toBe(3);
  });

  it('stops sending once the target asked for an hour: at most the requests already under way are refused', () => {
    // two cases in flight: each may have had one request on its way when the first refusal came
    expect(front.refused).toBeLessThanOrEqual(3);
  });
});

describe('--rate', () => {
  it('spaces the requests to the target by at least 1/rate', async () => {
    const service = await start('none');
    const front = await rateLimitedFront(service.url, () => undefined);
    const run = await runBehind(front, 'paced', ['--rate', '20', '--case', 'hello-world,name-echo,version-header']);
    expect(run.code).toBe(0);
    const gaps = front.passed.slice(1).map((t, i) => t - (front.passed[i] as number));
    expect(front.passed.length).toBeGreaterThanOrEqual(4);
    // 50 ms slots, read where the requests arrive: the median gap and the whole span hold even
    // when one arrival is held up on a loaded machine
    const sorted = [...gaps].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeGreaterThanOrEqual(40);
    expect((front.passed.at(-1) as number) - (front.passed[0] as number)).toBeGreaterThanOrEqual(gaps.length * 50 * 0.7);
  }, 120_000);

  it('is refused when it is not a positive number', async () => {
    const run = await runDemo(tmp.dir, ['--rate', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--rate takes requests per second');
  });
});
