import { dependencyMap, parseDependencyQuery, serviceDependency } from '../../model/dependencies.js';
import { V1_LIMIT } from '../../model/monitor-event.js';
import { parseV1Query, pageV1 } from '../../model/v1-query.js';
import { keyPager, parseV2Query, type V2Pager } from '../../model/v2-query.js';
import { answerWithBytes } from '../answer-bytes.js';
import { monFailure, monRefusal, queryOf, type Answer, type Handler, type OperationCall } from '../answers.js';
import { jsonBytesWithList } from '../json-text.js';
import { withKeys } from './monitor-auth.js';
import { v1EventBytes, v2EventBytes } from './monitor-view-bytes.js';
import { v1Event, v2Event } from './monitor-views.js';

const ok = (body: unknown): Answer => ({ status: 200, body });

/** GET /api/v1/events with a result limit (the reference's is 1000, G Limits). */
export function listEventsV1With(opts: { limit: number }): Handler {
  return withKeys('events_read', (call, ctx) => {
    const q = parseV1Query(queryOf(call));
    if (!q.ok) return monRefusal(q);
    const events = pageV1(ctx.model.monitor.matchV1(q.value), q.value, opts.limit);
    // written from the events' kept bytes unless an override reads the body (see answer-bytes.ts)
    return answerWithBytes(
      200,
      () => ({ events: events.map(v1Event), status: 'ok' }),
      () => jsonBytesWithList({ events: undefined, status: 'ok' }, 'events', events.map(v1EventBytes)),
    );
  });
}

/** The URL of the next page: the same parameters with the new cursor (G: "repeat the same parameters with it"). */
function nextLink(base: string, call: OperationCall, after: string): string {
  const q = new URLSearchParams(call.query);
  q.set('page[cursor]', after);
  return `${base}/api/v2/events?${q.toString()}`;
}

/** GET /api/v2/events, cut into pages by `pager` (the reference's: {@link keyPager}). */
export function listEventsV2With(opts: { pager: V2Pager }): Handler {
  return withKeys('events_read', (call, ctx) => {
    const started = ctx.model.clock.now();
    const q = parseV2Query(queryOf(call), started);
    if (!q.ok) return monRefusal(q);
    const page = opts.pager(ctx.model.monitor.matchV2(q.value), q.value);
    if (!page.ok) return monRefusal(page);
    const { after, events } = page.value;
    const envelope = {
      links: after ? { next: nextLink(ctx.monUrl, call, after) } : {},
      meta: {
        elapsed: ctx.model.clock.now() - started,
        ...(after ? { page: { after } } : {}),
        request_id: `req-${started.toString(36)}-${events.length}`,
        status: 'done',
      },
    };
    // written from the events' kept bytes unless an override reads the body (see answer-bytes.ts)
    return answerWithBytes(
      200,
      () => ({ data: events.map(v2Event), ...envelope }),
      () => jsonBytesWithList({ data: undefined, ...envelope }, 'data', events.map(v2EventBytes)),
    );
  });
}

/** POST /api/v1/events: 400 with every problem, or 200 `{event, status}`. */
export const postEvent: Handler = withKeys('api', (call, ctx) => {
  if (call.bodyError) return monFailure(400, call.bodyError);
  const posted = ctx.model.monitor.post(call.body);
  return posted.ok ? ok({ event: v1Event(posted.value), status: 'ok' }) : monRefusal(posted);
});

/** The monitoring operations of spec 002 G by operation ID. */
export const MONITOR_HANDLERS: Readonly<Record<string, Handler>> = {
  serviceDependencies: withKeys('app', (call, ctx) => {
    const q = parseDependencyQuery(queryOf(call), ctx.model.clock.now());
    return q.ok ? ok(dependencyMap(q.value)) : monRefusal(q);
  }),
  serviceDependency: withKeys('app', (call, ctx) => {
    const q = parseDependencyQuery(queryOf(call), ctx.model.clock.now());
    if (!q.ok) return monRefusal(q);
    const one = serviceDependency(q.value, call.params['service'] ?? '');
    return one.ok ? ok(one.value) : monRefusal(one);
  }),
  // G Authentication 3: the IP ranges take no keys
  ipRanges: (_call, ctx) => ok(structuredClone(ctx.model.ipRanges)),
  listEventsV1: listEventsV1With({ limit: V1_LIMIT }),
  listEventsV2: listEventsV2With({ pager: keyPager }),
  postEvent,
};
