import { SpecgateError } from '../../../src/errors.js';
import { nodeExchange, type AnswerHeaders } from '../../../src/targets/node-exchange.js';
import { hookSleep } from '../../../src/targets/client-process/clock-hook-client.js';
import { REFERENCE_BEHAVIOUR, type EventsClientBehaviour } from './behaviour.js';
import { EVENTS_CLIENT_EXIT, readEventsClientEnv, type EventsClientEnv } from './contract.js';

/** How many times the client polls the repository's events. */
export const POLLS = 4;
/** v1 pages at most, and v2 pages at most: enough to show paging, bounded for a short run. */
const V1_PAGES = 3;
const V2_PAGES = 3;
/** A poll interval beyond this is not waited out: the run would outlast any budget. */
const LONGEST_WAIT_MS = 10_000;

/**
 * Every call goes over node:http (src/targets/node-exchange.ts: only the headers given, no
 * redirect followed) and has no deadline of its own: the harness stops a client past its budget.
 */
async function getJson(url: string, headers: Record<string, string>): Promise<{ status: number; headers: AnswerHeaders; body: unknown }> {
  const res = await nodeExchange(url, { headers });
  let body: unknown;
  try {
    body = res.text ? (JSON.parse(res.text) as unknown) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body };
}

function field(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' && key in o ? (o as Record<string, unknown>)[key] : undefined;
}

/** Polls the repository's events, waiting what each answer's X-Poll-Interval asks. */
async function pollRepoEvents(env: EventsClientEnv, b: EventsClientBehaviour): Promise<void> {
  const perPage = b.perPage();
  const url = `${env.apiUrl}/repos/${encodeURIComponent(env.owner)}/${encodeURIComponent(env.repo)}/events${perPage === undefined ? '' : `?per_page=${perPage}`}`;
  let etag: string | undefined;
  let first: number | undefined;
  for (let i = 0; i < POLLS; i++) {
    const headers = b.platformHeaders(env.apiToken);
    const inm = etag === undefined ? undefined : b.ifNoneMatch(etag);
    if (inm !== undefined) headers['If-None-Match'] = inm;
    const res = await getJson(url, headers);
    if (res.status !== 200 && res.status !== 304) throw new SpecgateError('SG_TARGET_PROTOCOL', `GET ${url} answered ${res.status}`);
    etag = res.headers.get('etag') ?? etag;
    const seconds = Number(res.headers.get('x-poll-interval') ?? '60');
    first ??= seconds;
    if (i < POLLS - 1) await hookSleep(Math.min(b.pollWaitMs(seconds, first), LONGEST_WAIT_MS));
  }
}

/** Lists the last 18 hours of v1 events, paging by the last event's timestamp while pages are full. */
async function listV1(env: EventsClientEnv, b: EventsClientBehaviour): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  let q = new URLSearchParams({ start: String(now - 18 * 3600 + 60), end: String(now) });
  for (let i = 0; i < V1_PAGES; i++) {
    const res = await getJson(`${env.monUrl}/api/v1/events?${q.toString()}`, b.monHeaders({ apiKey: env.monApiKey, appKey: env.monAppKey }, 'v1'));
    const events = field(res.body, 'events');
    if (res.status !== 200 || !Array.isArray(events)) throw new SpecgateError('SG_TARGET_PROTOCOL', `GET /api/v1/events answered ${res.status}`);
    const last = field(events[events.length - 1], 'date_happened');
    if (events.length < 1000 || typeof last !== 'number') return;
    q = b.v1Next(q, last);
  }
}

/** Walks the last hour of v2 events with the cursor, repeating the first request's parameters. */
async function walkV2(env: EventsClientEnv, b: EventsClientBehaviour): Promise<void> {
  const now = Date.now();
  const first = new URLSearchParams({ 'filter[from]': String(now - 6 * 3600_000), 'filter[to]': String(now), sort: '-timestamp', 'page[limit]': '5' });
  let q = first;
  for (let i = 0; i < V2_PAGES; i++) {
    const res = await getJson(`${env.monUrl}/api/v2/events?${q.toString()}`, b.monHeaders({ apiKey: env.monApiKey, appKey: env.monAppKey }, 'v2'));
    if (res.status !== 200) throw new SpecgateError('SG_TARGET_PROTOCOL', `GET /api/v2/events answered ${res.status}`);
    const after = field(field(field(res.body, 'meta'), 'page'), 'after');
    if (typeof after !== 'string') return;
    q = b.v2Next(first, after);
  }
}

/** Reads the dependency map of the client's environment, then the neighbours of the first service it names. */
async function readDependencies(env: EventsClientEnv, b: EventsClientBehaviour): Promise<void> {
  const headers = b.monHeaders({ apiKey: env.monApiKey, appKey: env.monAppKey }, 'deps');
  const query = b.dependencyQuery().toString();
  const map = await getJson(`${env.monUrl}/api/v1/service_dependencies${query ? `?${query}` : ''}`, headers);
  if (map.status !== 200) throw new SpecgateError('SG_TARGET_PROTOCOL', `GET /api/v1/service_dependencies answered ${map.status}`);
  const service = map.body !== null && typeof map.body === 'object' ? Object.keys(map.body)[0] : undefined;
  if (service === undefined) return;
  const one = await getJson(`${env.monUrl}/api/v1/service_dependencies/${encodeURIComponent(service)}${query ? `?${query}` : ''}`, headers);
  if (one.status !== 200) throw new SpecgateError('SG_TARGET_PROTOCOL', `GET /api/v1/service_dependencies/${service} answered ${one.status}`);
}

/** Posts one event, dated now, and reads the IP ranges (which take no keys). */
async function postAndRanges(env: EventsClientEnv, b: EventsClientBehaviour): Promise<void> {
  const res = await nodeExchange(`${env.monUrl}/api/v1/events`, {
    method: 'POST',
    headers: { ...b.monHeaders({ apiKey: env.monApiKey, appKey: env.monAppKey }, 'post'), 'content-type': 'application/json' },
    body: JSON.stringify(b.postBody(Math.floor(Date.now() / 1000))),
  });
  if (res.status !== 200 && res.status !== 202) throw new SpecgateError('SG_TARGET_PROTOCOL', `POST /api/v1/events answered ${res.status}`);
  // Accept */*, as the client always sent here: the passive cases that judge the IP ranges without
  // keys look for a request asking for JSON, which this client's reads leave to the probes
  await nodeExchange(`${env.ipRangesUrl}/`, { headers: { accept: '*/*' } });
}

/**
 * Runs the whole client: monitoring calls first, then the platform polls. One part that fails
 * does not keep the others from running; the run fails with every part's failure.
 */
export async function runEventsClient(env: EventsClientEnv, b: EventsClientBehaviour = REFERENCE_BEHAVIOUR): Promise<void> {
  const failures: string[] = [];
  for (const part of [readDependencies, postAndRanges, listV1, walkV2, pollRepoEvents]) {
    try {
      await part(env, b);
    } catch (e) {
      failures.push(e instanceof Error ? e.message : String(e));
    }
  }
  if (failures.length) throw new SpecgateError('SG_TARGET_PROTOCOL', failures.join('; '));
}

/** The process entry: reads the launch contract, runs, exits with the contract's status. */
export function eventsClientMain(b: EventsClientBehaviour = REFERENCE_BEHAVIOUR): void {
  let env: EventsClientEnv;
  try {
    env = readEventsClientEnv(process.env);
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(EVENTS_CLIENT_EXIT.usage);
  }
  runEventsClient(env, b).then(
    () => process.exit(EVENTS_CLIENT_EXIT.ok),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(EVENTS_CLIENT_EXIT.failed);
    },
  );
}
