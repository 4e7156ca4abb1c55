import type { Clock } from '../../../src/engine/clock.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { finishClient, withClientHarness, type FinishedClient } from '../../../src/targets/client-process/harness.js';
import { startRecordingProxy, type ProxiedExchange } from '../../../src/targets/recording-proxy.js';
import { MON_API_KEY, MON_APP_KEY } from '../../../reference/events/model/monitor-keys.js';
import { SEEDED_PLATFORM } from '../../../reference/events/model/platform-seed-accounts.js';
import { startEventsServer } from '../../../reference/events/server/server.js';
import type { Answer, Handler, OperationCall } from '../../../reference/events/server/answers.js';
import { IP_RANGES_PREFIX, PLATFORM_PREFIX } from '../../../reference/events/server/routes.js';
import { PLATFORM_OPERATIONS } from './platform-operations.js';
import { clientCommandVar } from '../../../src/targets/client-process/command-var.js';

/** The client application as errors name it: how a user gives it. */
export const EVENTS_CLIENT = 'events client (--events-client "<command line>" or vars.events_client_command)';

/**
 * The poll intervals the played platform asks for: `first` seconds on the first `growAfter`
 * answers of each stream, then `grown` (H, Polling rules: the interval can grow under load).
 * Short, so a client that obeys them finishes a few polls well within its budget.
 */
export const PLAYED_POLLING = { first: 1, grown: 2, growAfter: 2 } as const;

/** One request the played services routed to an operation, as they saw and answered it. */
export interface ServedCall {
  /** When the request was answered (ms), on the client harness's clock: real time plus what the client slept through the clock hook. */
  at: number;
  /** When the request was sent (ms), when known apart from `at` (a recording's startedDateTime). */
  sentAt?: number;
  operationId: string;
  method: string;
  /** Path and query as the service got them. */
  url: string;
  /** Path and query without `page[cursor]`/`page`: what makes two polls "of one stream". */
  stream: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The request body as sent (POST /api/v1/events). */
  requestBody?: string;
  status: number;
  /** The answer's ETag and X-Poll-Interval (platform answers). */
  etag?: string;
  interval?: number;
  /** GET /api/v1/events: how many events the answer held, and the last one's date_happened. */
  v1?: { count: number; last?: number };
  /** GET /api/v2/events: the answer's `meta.page.after`. */
  after?: string;
}

/** What one launch of the client under test showed: every request it sent, and how it ended. */
export interface ClientRun {
  exchanges: ProxiedExchange[];
  calls: ServedCall[];
  finished: FinishedClient;
}

/**
 * The client application under test: `vars.events_client_command`, which
 * `--events-client "<command line>"` sets and the embedded reference fills with the
 * reference client.
 */
export function eventsClientCommand(ctx: CheckContext): unknown {
  return clientCommandVar(ctx.vars, 'events_client_command', EVENTS_CLIENT);
}


function record(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' && key in o ? (o as Record<string, unknown>)[key] : undefined;
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** The stream a request polls: its path and query, paging parameters left out. */
function streamOf(call: OperationCall): string {
  const q = new URLSearchParams(call.query);
  q.delete('page[cursor]');
  q.delete('page');
  q.sort();
  return `${call.method} ${call.path}?${q.toString()}`;
}

/**
 * The reference services with the platform's poll interval set by {@link PLAYED_POLLING}, and
 * every routed call kept with the time it was answered: the recording proxy keeps bodies only
 * in part (a v1 page of 1000 events is larger), and no times.
 */
function observedHandlers(calls: ServedCall[], clock: Clock): (id: string, reference: Handler) => Handler {
  const answered = new Map<string, number>();
  return (id, reference) => (call, ctx) => {
    const answer: Answer = reference(call, ctx);
    const headers = { ...(answer.headers ?? {}) };
    const stream = streamOf(call);
    if (PLATFORM_OPERATIONS.has(id) && headers['x-poll-interval'] !== undefined) {
      const n = answered.get(stream) ?? 0;
      answered.set(stream, n + 1);
      headers['x-poll-interval'] = String(n < PLAYED_POLLING.growAfter ? PLAYED_POLLING.first : PLAYED_POLLING.grown);
    }
    const seen: ServedCall = { at: clock.now(), operationId: id, method: call.method, url: `${call.path}${call.query.size ? `?${call.query.toString()}` : ''}`, stream, query: new URLSearchParams(call.query), headers: call.headers, status: answer.status };
    if (headers['etag'] !== undefined) seen.etag = headers['etag'];
    if (headers['x-poll-interval'] !== undefined) seen.interval = Number(headers['x-poll-interval']);
    if (id === 'listEventsV1' && answer.status === 200) {
      const events = record(answer.body, 'events');
      if (Array.isArray(events)) {
        const last = asNumber(record(events[events.length - 1], 'date_happened'));
        seen.v1 = { count: events.length, ...(last !== undefined ? { last } : {}) };
      }
    }
    if (id === 'listEventsV2' && answer.status === 200) {
      const after = record(record(record(answer.body, 'meta'), 'page'), 'after');
      if (typeof after === 'string') seen.after = after;
    }
    calls.push(seen);
    return { ...answer, headers };
  };
}

/**
 * Plays the monitoring API and the platform for a client: the reference services (fresh, on
 * the wall clock), behind a recording proxy; request times, which the poll-interval judge
 * compares, are stamped on the harness's clock, so a client that sleeps through the clock hook
 * (SPECGATE_CLOCK_URL) is judged in milliseconds. The client starts with
 * the launch contract of reference/events/client/README.md and has `budgetMs` to finish; one
 * that is still running then is stopped and judged on what it sent.
 */
export async function runClient(ctx: CheckContext, command: unknown, budgetMs: number): Promise<ClientRun> {
  return withClientHarness(ctx.signal, async (h) => {
    const calls: ServedCall[] = [];
    const service = h.own(await startEventsServer({ override: observedHandlers(calls, h.clock) }));
    const proxy = h.own(await startRecordingProxy(service.url));
    const p = SEEDED_PLATFORM;
    const client = h.launch(
      command,
      {
        SPECGATE_MON_URL: proxy.url,
        SPECGATE_IP_RANGES_URL: `${proxy.url}${IP_RANGES_PREFIX}`,
        SPECGATE_MON_API_KEY: MON_API_KEY,
        SPECGATE_MON_APP_KEY: MON_APP_KEY,
        SPECGATE_API_URL: `${proxy.url}${PLATFORM_PREFIX}`,
        SPECGATE_API_TOKEN: p.token,
        SPECGATE_OWNER: p.owner,
        SPECGATE_REPO: p.repo,
      },
      EVENTS_CLIENT,
    );
    await client.waitForExit(budgetMs);
    const finished = await finishClient(client, 'events client');
    return { exchanges: [...proxy.exchanges], calls: withPostBodies(calls, proxy.exchanges), finished };
  });
}

/** The calls, each post with the body the proxy saw it carry (the n-th post routed is the n-th post proxied). */
function withPostBodies(calls: readonly ServedCall[], exchanges: readonly ProxiedExchange[]): ServedCall[] {
  const posts = exchanges.filter((x) => x.method === 'POST' && new URL(x.url, 'http://client.invalid').pathname === '/api/v1/events');
  let n = 0;
  return calls.map((c) => {
    if (c.operationId !== 'postEvent') return c;
    const x = posts[n++];
    return x ? { ...c, requestBody: x.requestBody } : c;
  });
}
