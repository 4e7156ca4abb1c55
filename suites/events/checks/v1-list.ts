import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { field, nowMs, ok, refused, seconds } from './support.js';

const HOUR = 3600 * 1000;

/** The rules of GET /api/v1/events (spec 002 G, its parameter table and Limits) one case each judges. */
type Rule = 'start-end-required' | 'window' | 'priority' | 'sources' | 'tags' | 'exclude-aggregate' | 'unaggregated' | 'page' | 'limit';

interface V1Args {
  rule: Rule;
}

type Event = Record<string, unknown>;

/**
 * The window the rules compare lists over, in POSIX seconds: from 17 h 50 min to 2 h ago. Events
 * other cases post while these run carry date_happened now, or just inside the 18-hour bound,
 * so no list of one rule changes between its requests.
 */
function fullWindow(ctx: CheckContext): { start: number; end: number } {
  const now = nowMs(ctx);
  return { start: seconds(now - 17 * HOUR - 50 * 60_000), end: seconds(now - 2 * HOUR) };
}

async function list(ctx: CheckContext, query: Record<string, unknown>): Promise<{ res: CheckResponse; events?: Event[] }> {
  const res = await ctx.request({ operation: 'listEventsV1', query });
  const events = field(res.body, 'events');
  return ok(res) && Array.isArray(events) ? { res, events: events as Event[] } : { res };
}

function idOf(e: Event): string {
  const id = e['id'];
  return typeof id === 'bigint' || typeof id === 'number' ? id.toString() : String(e['id_str']);
}

/** The parent an event names in `related_event_id`, as decimal digits. */
function relatedId(e: Event): string | undefined {
  const r = e['related_event_id'];
  return typeof r === 'bigint' || typeof r === 'number' ? r.toString() : typeof r === 'string' && r !== '' ? r : undefined;
}

/**
 * The other half of `unaggregated`: an event aggregated into a parent (an `is_aggregate` event it
 * names as `related_event_id`) dated before the frame is left out of the default list of that
 * frame, and returned with unaggregated=true. Judged on one such member the target itself lists
 * (the frame runs from just after its parent to the member, inside the window no case posts in);
 * a target whose list shows no member dated after its parent gives nothing to judge here.
 */
async function judgeAggregatedMember(ctx: CheckContext, events: Event[], fail: (message: string, res?: CheckResponse) => void): Promise<void> {
  const byId = new Map(events.map((e) => [idOf(e), e]));
  const date = (e: Event): number => Number(e['date_happened']);
  const parentOf = (e: Event): Event | undefined => {
    const id = relatedId(e);
    const parent = id === undefined ? undefined : byId.get(id);
    return parent && parent['is_aggregate'] === true && date(parent) < date(e) ? parent : undefined;
  };
  const member = events.find((e) => e['is_aggregate'] !== true && parentOf(e));
  const parent = member && parentOf(member);
  if (!member || !parent) return;
  const frame = { start: date(parent) + 1, end: date(member) };
  const id = idOf(member);
  const plain = await list(ctx, frame);
  if (!plain.events) return fail(`GET /api/v1/events answered ${plain.res.status} without an events array`, plain.res);
  if (plain.events.some((e) => idOf(e) === id))
    fail(`event ${id} is aggregated into ${idOf(parent)}, dated ${date(parent)}, before the frame [${frame.start}, ${frame.end}]; without unaggregated=true it was listed`, plain.res);
  const every = await list(ctx, { ...frame, unaggregated: true });
  if (!every.events) return fail(`GET /api/v1/events?unaggregated=true answered ${every.res.status} without an events array`, every.res);
  if (!every.events.some((e) => idOf(e) === id)) fail(`event ${id} (date_happened ${date(member)}) is in [${frame.start}, ${frame.end}], but unaggregated=true left it out`, every.res);
}

/** Tags, sources and priorities the listed events carry, to filter by values that exist. */
function firstValue(events: Event[], pick: (e: Event) => string | undefined): string | undefined {
  for (const e of events) {
    const v = pick(e);
    if (v) return v;
  }
  return undefined;
}

/**
 * `events.v1List`: one rule of the version 1 event list, judged against what the target itself
 * lists over most of the last 18 hours (the longest an event can be in the past): a
 * filter keeps exactly matching events (every event it returns matches, and every matching event
 * of the unfiltered list is returned), `start`/`end` are required and bound `date_happened`,
 * `exclude_aggregate` drops aggregates, `unaggregated` returns at least the default list (and the
 * default list leaves out a member whose aggregate lies before the frame),
 * `page` numbers from 0 without overlap, and a list holds at most 1000 events.
 */
export const v1List = defineCheck<V1Args>({
  description: 'one rule of GET /api/v1/events (required window, filters, aggregation, page, 1000 limit) judged against the target\'s own unfiltered list',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['rule'],
    properties: { rule: { enum: ['start-end-required', 'window', 'priority', 'sources', 'tags', 'exclude-aggregate', 'unaggregated', 'page', 'limit'] } },
  },
  judges: 'case',
  async run(ctx, args) {
    const w = fullWindow(ctx);
    const fail = (message: string, res?: CheckResponse, more: { expected?: unknown; actual?: unknown } = {}): void => ctx.fail({ message, ...more, ...(res ? { exchange: res.exchange } : {}) });
    if (args.rule === 'start-end-required') {
      for (const query of [{ end: w.end }, { start: w.start }, {}]) {
        const { res } = await list(ctx, query);
        if (!refused(res)) fail(`GET /api/v1/events without ${'start' in query ? 'end' : 'end' in query ? 'start' : 'start and end'} answered ${res.status}; both are required, so expected a refusal (4xx)`, res);
      }
      return;
    }
    const all = await list(ctx, { start: w.start, end: w.end, unaggregated: true });
    if (!all.events) return fail(`GET /api/v1/events over the last 18 hours (17 h 50 min to 2 h ago) answered ${all.res.status} without an events array`, all.res);
    const events = all.events;
    switch (args.rule) {
      case 'window': {
        // an inner window: the middle third of what the target holds
        const times = events.map((e) => Number(e['date_happened'])).filter(Number.isFinite).sort((a, b) => a - b);
        if (times.length < 3) return fail(`the target lists ${times.length} events from 17 h 50 min to 2 h ago; the window rule needs at least 3`, all.res);
        const start = times[Math.floor(times.length / 3)] as number;
        const end = times[Math.floor((2 * times.length) / 3)] as number;
        const inner = await list(ctx, { start, end, unaggregated: true });
        if (!inner.events) return fail(`GET /api/v1/events answered ${inner.res.status} without an events array`, inner.res);
        const outside = inner.events.filter((e) => Number(e['date_happened']) < start || Number(e['date_happened']) > end);
        if (outside.length) fail(`${outside.length} event(s) outside [${start}, ${end}] were listed`, inner.res, { actual: outside.slice(0, 3).map((e) => e['date_happened']) });
        const expected = events.filter((e) => Number(e['date_happened']) >= start && Number(e['date_happened']) <= end).map(idOf);
        const got = new Set(inner.events.map(idOf));
        const missing = expected.filter((id) => !got.has(id));
        if (missing.length) fail(`${missing.length} event(s) with date_happened in [${start}, ${end}] were not listed (first: ${missing.slice(0, 3).join(', ')})`, inner.res);
        return;
      }
      case 'priority':
      case 'sources':
      case 'tags': {
        const probe =
          args.rule === 'priority'
            ? firstValue(events, (e) => (e['priority'] === 'low' ? 'low' : undefined)) ?? 'low'
            : args.rule === 'sources'
              ? firstValue(events, (e) => (typeof e['source_type_name'] === 'string' ? e['source_type_name'] : undefined))
              : firstValue(events, (e) => (Array.isArray(e['tags']) && typeof e['tags'][0] === 'string' ? (e['tags'][0] as string) : undefined));
        if (probe === undefined) return fail(`no listed event has a ${args.rule === 'sources' ? 'source_type_name' : 'tag'} to filter by`, all.res);
        const matches = (e: Event): boolean =>
          args.rule === 'priority' ? e['priority'] === probe : args.rule === 'sources' ? String(e['source_type_name']).toLowerCase() === probe.toLowerCase() : Array.isArray(e['tags']) && e['tags'].includes(probe);
        const filtered = await list(ctx, { start: w.start, end: w.end, unaggregated: true, [args.rule]: probe });
        if (!filtered.events) return fail(`GET /api/v1/events?${args.rule}=${probe} answered ${filtered.res.status} without an events array`, filtered.res);
        const wrong = filtered.events.filter((e) => !matches(e));
        if (wrong.length) fail(`${args.rule}=${probe} listed ${wrong.length} event(s) that do not match it`, filtered.res, { actual: wrong.slice(0, 3) });
        const got = new Set(filtered.events.map(idOf));
        const missing = events.filter(matches).map(idOf).filter((id) => !got.has(id));
        if (missing.length) fail(`${args.rule}=${probe} left out ${missing.length} matching event(s) the unfiltered list holds (first: ${missing.slice(0, 3).join(', ')})`, filtered.res);
        return;
      }
      case 'exclude-aggregate': {
        const res = await list(ctx, { start: w.start, end: w.end, exclude_aggregate: true });
        if (!res.events) return fail(`GET /api/v1/events?exclude_aggregate=true answered ${res.res.status} without an events array`, res.res);
        const aggregates = res.events.filter((e) => e['is_aggregate'] === true);
        if (aggregates.length) fail(`exclude_aggregate=true listed ${aggregates.length} event(s) with is_aggregate true`, res.res, { actual: aggregates.slice(0, 3) });
        return;
      }
      case 'unaggregated': {
        const plain = await list(ctx, { start: w.start, end: w.end });
        if (!plain.events) return fail(`GET /api/v1/events answered ${plain.res.status} without an events array`, plain.res);
        const got = new Set(events.map(idOf));
        const missing = plain.events.map(idOf).filter((id) => !got.has(id));
        if (missing.length) fail(`unaggregated=true ("all events in [start,end]") left out ${missing.length} event(s) the default list returns`, all.res);
        await judgeAggregatedMember(ctx, events, fail);
        return;
      }
      case 'page': {
        const first = await list(ctx, { start: w.start, end: w.end, unaggregated: true, page: 0 });
        const second = await list(ctx, { start: w.start, end: w.end, unaggregated: true, page: 1 });
        if (!first.events || !second.events) return fail(`GET /api/v1/events with page answered ${(first.events ? second : first).res.status} without an events array`, (first.events ? second : first).res);
        const p0 = first.events.map(idOf);
        if (p0.join(',') !== events.slice(0, p0.length).map(idOf).join(',')) fail('page=0 is not the first page: it differs from the start of the list without page', first.res);
        const overlap = second.events.map(idOf).filter((id) => p0.includes(id));
        if (overlap.length) fail(`page=1 repeats ${overlap.length} event(s) of page=0`, second.res, { actual: overlap.slice(0, 3) });
        return;
      }
      case 'limit': {
        if (events.length > 1000) fail(`one list answered ${events.length} events; at most 1000 (the most recent)`, all.res, { expected: 1000, actual: events.length });
        return;
      }
    }
  },
});
