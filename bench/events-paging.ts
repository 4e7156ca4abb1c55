import { createServer } from 'node:http';
import { Pool } from 'undici';
import { VirtualClock } from '../src/engine/clock.js';
import { SpecgateError } from '../src/errors.js';
import { listenOnLoopback, type Listening } from '../src/targets/loopback-server.js';
import { EventsModel } from '../reference/events/model/events-model.js';
import { dateHappened, V2_MAX_LIMIT } from '../reference/events/model/monitor-event.js';
import { MON_API_KEY, MON_APP_KEY } from '../reference/events/model/monitor-keys.js';
import { startEventsServer } from '../reference/events/server/server.js';
import { judgeFigure } from './goals.js';
import { interleave, roundHead, summarize } from './rounds.js';

/**
 * The events reference serving a large monitoring store page by page (spec 002 G), side by side
 * with a bare `node:http` server that answers the very same bodies from memory:
 *
 * 1. a 100,000-event store walked with GET /api/v2/events cursor paging at the largest
 *    `page[limit]`;
 * 2. the same store walked with GET /api/v1/events in `start`/`end` windows of at most 1000 events.
 *
 * A first walk through the reference follows the cursors and captures every page's exact JSON
 * text; the bare server answers those texts by path. Both are then walked with one undici Pool
 * each (same keep-alive, same connections), by the same number of concurrent walkers, in
 * interleaved rounds (bench/rounds.ts). The clock is fixed, so the reference writes the same bytes
 * on every walk (checked once before timing). Goal: the reference within 1.5x of the bare server
 * (pages/s), on the median of the per-round ratios.
 */
const STORE_SIZE = Number(process.env['BENCH_EVENTS'] ?? 100_000);
/** Walkers at once; each walks every page in order, as one client following cursors would. */
const WALKERS = 4;
const GOAL = 1.5;
const NOW = Date.UTC(2026, 0, 1);
const HEADERS = { 'mon-api-key': MON_API_KEY, 'mon-application-key': MON_APP_KEY };

/** One page of a walk: the path asked for and the exact text the reference answered. */
interface Page {
  path: string;
  body: string;
}

/**
 * A model holding exactly `size` monitoring events: the generated stream scaled up (its aggregation
 * groups and every alert type kept), topped up with plain events to the exact count.
 */
function bigModel(size: number): EventsModel {
  const groups = 12;
  // the stream adds one event per alert type and up to six per group beyond `recent` and `older`
  const older = Math.floor(size / 50);
  const model = new EventsModel({ clock: new VirtualClock(NOW), monitorSeed: { recent: size - older - 7 - groups * 6, older, groups } });
  const missing = size - model.monitor.all().length;
  for (let i = 0; i < missing; i++) model.addMonitorEvent({ title: `Heartbeat ${i}`, text: 'Agent is alive.', host: 'web-01', timestampMs: NOW - 90_000 - i * 7_919 });
  const count = model.monitor.all().length;
  if (count !== size) throw new SpecgateError('SG_INTERNAL', `the store holds ${count} events, not ${size}`);
  return model;
}

const v2Path = (cursor?: string): string => `/api/v2/events?page%5Blimit%5D=${V2_MAX_LIMIT}${cursor ? `&page%5Bcursor%5D=${encodeURIComponent(cursor)}` : ''}`;

async function getText(pool: Pool, path: string): Promise<string> {
  const res = await pool.request({ method: 'GET', path, headers: HEADERS });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new SpecgateError('SG_TARGET_PROTOCOL', `GET ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return text;
}

/** Follows `meta.page.after` from the first page to the last, keeping every page's text. */
async function captureV2(pool: Pool): Promise<{ pages: Page[]; events: number }> {
  const pages: Page[] = [];
  let events = 0;
  let cursor: string | undefined;
  do {
    const path = v2Path(cursor);
    const body = await getText(pool, path);
    const parsed = JSON.parse(body) as { data: unknown[]; meta: { page?: { after?: string } } };
    events += parsed.data.length;
    pages.push({ path, body });
    cursor = parsed.meta.page?.after;
  } while (cursor !== undefined);
  return { pages, events };
}

/**
 * Windows of whole seconds, newest first, each holding at most 1000 events, covering the store;
 * asked `unaggregated` so every event in a window is answered and the windows add up to the store.
 */
function v1Paths(model: EventsModel, perWindow: number): string[] {
  const perSecond = new Map<number, number>();
  for (const e of model.monitor.all()) perSecond.set(dateHappened(e), (perSecond.get(dateHappened(e)) ?? 0) + 1);
  const seconds = [...perSecond.keys()].sort((a, b) => b - a);
  const paths: string[] = [];
  let end: number | undefined;
  let start = 0;
  let inWindow = 0;
  const close = (): void => {
    if (end !== undefined) paths.push(`/api/v1/events?start=${start}&end=${end}&unaggregated=true`);
  };
  for (const s of seconds) {
    const n = perSecond.get(s) ?? 0;
    if (end === undefined || inWindow + n > perWindow) {
      close();
      end = s;
      inWindow = 0;
    }
    start = s;
    inWindow += n;
  }
  close();
  return paths;
}

async function captureV1(pool: Pool, paths: string[]): Promise<{ pages: Page[]; events: number }> {
  const pages: Page[] = [];
  let events = 0;
  for (const path of paths) {
    const body = await getText(pool, path);
    events += (JSON.parse(body) as { events: unknown[] }).events.length;
    pages.push({ path, body });
  }
  return { pages, events };
}

/** A bare node:http server answering each captured path with its text, headers as the reference writes them. */
async function startBare(pages: readonly Page[]): Promise<Listening> {
  const answers = new Map(pages.map((p) => [p.path, { body: p.body, length: String(Buffer.byteLength(p.body)) }]));
  const server = createServer((req, res) => {
    const a = answers.get(req.url ?? '');
    if (!a) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8', 'content-length': a.length });
    res.end(a.body);
  });
  server.keepAliveTimeout = 1000;
  return listenOnLoopback(server);
}

/** Every walker asks every page in order; each answer's length is checked against the capture. Milliseconds. */
async function walk(pool: Pool, pages: readonly Page[]): Promise<number> {
  const t = performance.now();
  await Promise.all(
    Array.from({ length: WALKERS }, async () => {
      for (const p of pages) {
        const text = await getText(pool, p.path);
        if (text.length !== p.body.length) throw new SpecgateError('SG_TARGET_PROTOCOL', `GET ${p.path} answered ${text.length} characters, ${p.body.length} before`);
      }
    }),
  );
  return performance.now() - t;
}

/** Interleaved bare and reference walks of `pages`; prints each round and the figure. */
async function compare(label: string, pages: readonly Page[], reference: Pool, bare: Pool): Promise<void> {
  for (const p of pages) {
    // the bytes the bare server serves are the ones the reference writes on every walk (and a warm-up of the reference)
    if ((await getText(reference, p.path)) !== p.body) throw new SpecgateError('SG_INTERNAL', `${label}: GET ${p.path} answered other text on a second walk`);
  }
  await walk(bare, pages);
  const perSecond = (ms: number): number => (pages.length * WALKERS * 1000) / ms;
  // ratio of times reference/bare = ratio of rates bare/reference
  const result = await interleave(
    () => walk(bare, pages),
    () => walk(reference, pages),
    {
      warmup: 0,
      onRound: (r) =>
        console.log(`  ${label} ${roundHead(r, ['bare', 'reference'])}: bare ${perSecond(r.bare).toFixed(0)} pages/s, reference ${perSecond(r.specgate).toFixed(1)} pages/s, ratio ${r.ratio.toFixed(2)}`),
    },
  );
  const bareRate = summarize(result.rounds.map((r) => perSecond(r.bare))).median;
  const refRate = summarize(result.rounds.map((r) => perSecond(r.specgate))).median;
  const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p.body), 0);
  console.log(
    judgeFigure(
      `${label}, ${pages.length} pages (${(bytes / pages.length / 1024).toFixed(0)} KiB each on average), ${WALKERS} walkers (median bare ${bareRate.toFixed(0)} pages/s, reference ${refRate.toFixed(1)} pages/s)`,
      result.ratio,
      { name: 'median ratio bare/reference (pages/s)', goal: { op: '<=', value: GOAL } },
    ),
  );
}

export async function runBench(): Promise<void> {
  const seeding = performance.now();
  const model = bigModel(STORE_SIZE);
  console.log(`  seeded ${STORE_SIZE} monitoring events in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const service = await startEventsServer({ model, clock: model.clock });
  const reference = new Pool(service.url, { connections: WALKERS, keepAliveTimeout: 1000 });
  const servers: Listening[] = [];
  const pools: Pool[] = [reference];
  try {
    const v2 = await captureV2(reference);
    if (v2.events !== STORE_SIZE) throw new SpecgateError('SG_INTERNAL', `the v2 walk saw ${v2.events} events of ${STORE_SIZE}`);
    const v1 = await captureV1(reference, v1Paths(model, 1000));
    if (v1.events !== STORE_SIZE) throw new SpecgateError('SG_INTERNAL', `the v1 windows held ${v1.events} events of ${STORE_SIZE}`);
    const bareServer = await startBare([...v2.pages, ...v1.pages]);
    servers.push(bareServer);
    const bare = new Pool(bareServer.url, { connections: WALKERS, keepAliveTimeout: 1000 });
    pools.push(bare);
    await compare(`v2 cursor walk, page[limit]=${V2_MAX_LIMIT}, ${STORE_SIZE} events`, v2.pages, reference, bare);
    await compare(`v1 start/end windows of <= 1000 events, ${STORE_SIZE} events`, v1.pages, reference, bare);
  } finally {
    for (const p of pools) await p.close();
    for (const s of servers) await s.stop();
    await service.stop();
  }
}

// run directly (`node dist/bench/events-paging.js`) as well as through run-all
if (process.argv[1]?.endsWith('events-paging.js')) {
  runBench().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
