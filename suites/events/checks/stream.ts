import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { field, nowMs, ok, seconds } from './support.js';

/** The rules about posted events and the v2 list (spec 002 G) one case each judges. */
type Rule = 'stream' | 'aggregation' | 'related-event' | 'time-filter' | 'sort' | 'limit' | 'next-link' | 'monitor-id' | 'markdown' | 'host-tags';

const HOUR = 3600 * 1000;

async function post(ctx: CheckContext, fields: Record<string, unknown>): Promise<{ res: CheckResponse; event?: Record<string, unknown> }> {
  const res = await ctx.request({ operation: 'postEvent', json: { title: 'specgate stream', text: 'posted by specgate', date_happened: seconds(nowMs(ctx)), ...fields } });
  const event = field(res.body, 'event');
  return ok(res) && event && typeof event === 'object' ? { res, event: event as Record<string, unknown> } : { res };
}

async function listV2(ctx: CheckContext, query: Record<string, unknown>): Promise<{ res: CheckResponse; data?: Record<string, unknown>[] }> {
  const res = await ctx.request({ operation: 'listEventsV2', query });
  const data = field(res.body, 'data');
  return ok(res) && Array.isArray(data) ? { res, data: data as Record<string, unknown>[] } : { res };
}

const ts = (item: Record<string, unknown>): number => Date.parse(String(field(field(item, 'attributes'), 'timestamp')));
const inner = (item: Record<string, unknown>): unknown => field(field(item, 'attributes'), 'attributes');

/**
 * `events.stream`: one rule of the event stream's read and write sides (spec 002 G): a posted
 * event is read back by both lists; events sharing an aggregation_key are grouped under an
 * aggregate; related_event_id names a parent; the v2 list's time filter, sort, page[limit] and
 * links.next; monitor_id empty on a posted event; a markdown text accepted and read back; the
 * tags of an event's host on the event read back.
 */
export const stream = defineCheck<{ rule: Rule }>({
  description: 'one rule of the event stream: posted events read back, aggregation, related events, markdown text, host tags, and the v2 filter, sort, limit, next link and monitor_id',
  args: { type: 'object', additionalProperties: false, required: ['rule'], properties: { rule: { enum: ['stream', 'aggregation', 'related-event', 'time-filter', 'sort', 'limit', 'next-link', 'monitor-id', 'markdown', 'host-tags'] } } },
  judges: 'case',
  async run(ctx, args) {
    const fail = (message: string, res?: CheckResponse, more: { expected?: unknown; actual?: unknown } = {}): void => ctx.fail({ message, ...more, ...(res ? { exchange: res.exchange } : {}) });
    // what a rule rests on: the post (EVENTS-MON-POST) and lists that answer their events (the list shapes)
    const blockedByPost = (res: CheckResponse): never => ctx.blocked('EVENTS-MON-POST', `POST /api/v1/events answered ${res.status}, not the event posted`, res.exchange);
    const blockedByList = (rule: string, res: CheckResponse, what: string): never => ctx.blocked(rule, `${what} answered ${res.status} without its events`, res.exchange);
    const now = nowMs(ctx);
    const input: RuleInput = { ctx, now, fail, blockedByPost, blockedByList };
    switch (args.rule) {
      case 'stream':
        return judgeReadBack(input);
      case 'aggregation':
        return judgeAggregation(input);
      case 'related-event': {
        const parent = await post(ctx, { title: 'specgate parent' });
        if (!parent.event) return blockedByPost(parent.res);
        const child = await ctx.request({ operation: 'postEvent', json: { title: 'specgate child', text: 'has a parent', date_happened: seconds(now), related_event_id: parent.event['id'] } });
        if (!ok(child)) fail(`a post whose related_event_id names the event just posted was answered ${child.status}`, child);
        return;
      }
      case 'time-filter':
        return judgeTimeFilter(input);
      case 'sort':
        return judgeSort(input);
      case 'limit': {
        for (const limit of [1, 3]) {
          const l = await listV2(ctx, { 'page[limit]': limit });
          if (!l.data) return blockedByList('EVENTS-MON-V2-LIST-SHAPE', l.res, `GET /api/v2/events?page[limit]=${limit}`);
          if (l.data.length > limit) fail(`page[limit]=${limit} answered ${l.data.length} events`, l.res, { expected: limit, actual: l.data.length });
        }
        return;
      }
      case 'next-link':
        return judgeNextLink(input);
      case 'monitor-id':
        return judgeMonitorId(input);
      case 'markdown':
        return judgeMarkdown(input);
      case 'host-tags':
        return judgeHostTags(input);
    }
  },
});

/** What the rule of one case is judged with: the case's clock, how it reports, and what a rule rests on. */
interface RuleInput {
  ctx: CheckContext;
  /** The case's time, in ms. */
  now: number;
  fail(message: string, res?: CheckResponse, more?: { expected?: unknown; actual?: unknown }): void;
  /** The post answered without the event: the rule rests on EVENTS-MON-POST. */
  blockedByPost(res: CheckResponse): never;
  /** A list answered without its events: the rule rests on the list shape `rule`. */
  blockedByList(rule: string, res: CheckResponse, what: string): never;
}

/** A posted event is read back by the v1 list of a frame and the v2 list of a range holding it. */
async function judgeReadBack({ ctx, now, fail, blockedByPost }: RuleInput): Promise<void> {
  const title = `specgate stream ${now}`;
  const p = await post(ctx, { title });
  if (!p.event) return blockedByPost(p.res);
  const at = Number(p.event['date_happened'] ?? seconds(now));
  const v1 = await ctx.request({ operation: 'listEventsV1', query: { start: at - 60, end: at + 60, unaggregated: true } });
  const events = field(v1.body, 'events');
  const idStr = String(p.event['id_str'] ?? p.event['id']);
  if (!Array.isArray(events) || !events.some((e) => String(field(e, 'id_str') ?? field(e, 'id')) === idStr)) fail(`the posted event ${idStr} is not in GET /api/v1/events for a frame holding its date_happened`, v1);
  const v2 = await listV2(ctx, { 'filter[from]': String((at - 60) * 1000), 'filter[to]': String((at + 60) * 1000), 'page[limit]': 1000 });
  if (!v2.data || !v2.data.some((d) => field(inner(d as Record<string, unknown>), 'title') === title || field(field(d, 'attributes'), 'message') === 'posted by specgate'))
    fail(`the posted event "${title}" is not in GET /api/v2/events for a range holding its timestamp`, v2.res);
}

/** Two events posted with one aggregation_key show as an aggregate in the v1 list of their frame. */
async function judgeAggregation({ ctx, now, fail, blockedByPost, blockedByList }: RuleInput): Promise<void> {
  const key = `specgate-agg-${now}`;
  for (let i = 0; i < 2; i++) {
    const p = await post(ctx, { aggregation_key: key, title: `specgate aggregated ${i}` });
    if (!p.event) return blockedByPost(p.res);
  }
  const v1 = await ctx.request({ operation: 'listEventsV1', query: { start: seconds(now) - 60, end: seconds(now) + 60 } });
  const events = field(v1.body, 'events');
  if (!Array.isArray(events)) return blockedByList('EVENTS-MON-V1-LIST-SHAPE', v1, 'GET /api/v1/events');
  if (!events.some((e) => field(e, 'is_aggregate') === true)) fail(`two events posted with aggregation_key ${key}: the list of their frame holds no aggregate (is_aggregate true)`, v1);
}

/** The v2 list between filter[from] and filter[to] (3 to 6 hours ago) holds no event outside them. */
async function judgeTimeFilter({ ctx, now, fail, blockedByList }: RuleInput): Promise<void> {
  const from = now - 6 * HOUR;
  const to = now - 3 * HOUR;
  const l = await listV2(ctx, { 'filter[from]': String(from), 'filter[to]': String(to), 'page[limit]': 1000 });
  if (!l.data) return blockedByList('EVENTS-MON-V2-LIST-SHAPE', l.res, 'GET /api/v2/events');
  if (l.data.length === 0) return ctx.noEvidence('EVENTS-MON-V2-TIME-FILTER', `no event between filter[from]=${from} and filter[to]=${to}; the rule is judged on the target's events of 3 to 6 hours ago`);
  ctx.observed('EVENTS-MON-V2-TIME-FILTER', l.data.length);
  const out = l.data.filter((d) => ts(d) < from || ts(d) > to);
  if (out.length) fail(`${out.length} event(s) outside filter[from]=${from} .. filter[to]=${to} were returned`, l.res, { actual: out.slice(0, 3).map((d) => field(field(d, 'attributes'), 'timestamp')) });
}

/** sort=timestamp and sort=-timestamp order the v2 list by timestamp, up and down. */
async function judgeSort({ ctx, now, fail, blockedByList }: RuleInput): Promise<void> {
  for (const sort of ['timestamp', '-timestamp']) {
    const l = await listV2(ctx, { 'filter[from]': String(now - 6 * HOUR), 'filter[to]': String(now - 3 * HOUR), sort, 'page[limit]': 50 });
    if (!l.data) return blockedByList('EVENTS-MON-V2-LIST-SHAPE', l.res, `GET /api/v2/events?sort=${sort}`);
    const times = l.data.map(ts);
    if (times.length < 2) return ctx.noEvidence('EVENTS-MON-V2-SORT', `sort=${sort}: fewer than 2 events between 6 and 3 hours ago, so no order could be seen`);
    ctx.observed('EVENTS-MON-V2-SORT', times.length - 1);
    const bad = times.findIndex((t, i) => i > 0 && (sort === 'timestamp' ? t < (times[i - 1] as number) : t > (times[i - 1] as number)));
    if (bad > 0) fail(`sort=${sort}: event ${bad + 1} (${new Date(times[bad] as number).toISOString()}) comes after ${new Date(times[bad - 1] as number).toISOString()}`, l.res);
  }
}

/** Following links.next of a first page answers the page its cursor (meta.page.after) gives. */
async function judgeNextLink({ ctx, now, fail, blockedByList }: RuleInput): Promise<void> {
  const q = { 'filter[from]': String(now - 6 * HOUR), 'filter[to]': String(now - 3 * HOUR), sort: 'timestamp', 'page[limit]': 2 };
  const first = await listV2(ctx, q);
  const next = field(field(first.res.body, 'links'), 'next');
  const after = field(field(field(first.res.body, 'meta'), 'page'), 'after');
  if (!first.data) return blockedByList('EVENTS-MON-V2-LIST-SHAPE', first.res, 'GET /api/v2/events');
  if (typeof next !== 'string' || next === '') return fail('a first page of 2 with more events after it has no links.next', first.res);
  let url: URL;
  try {
    url = new URL(next, String(ctx.vars['mon_url']));
  } catch {
    return fail(`links.next "${next}" is not a link`, first.res);
  }
  const followed = await ctx.request({ operation: 'listEventsV2', query: Object.fromEntries(url.searchParams) });
  const viaCursor = await listV2(ctx, { ...q, 'page[cursor]': after });
  const ids = (x: unknown): string => (Array.isArray(x) ? x.map((d) => String(field(d, 'id'))).join(',') : '');
  if (ids(field(followed.body, 'data')) !== ids(viaCursor.data)) fail('following links.next did not answer the page after the first (the page its cursor gives)', followed, { expected: ids(viaCursor.data), actual: ids(field(followed.body, 'data')) });
}

/** An event posted through POST /api/v1/events (related to no monitor) has an empty monitor_id in the v2 list. */
async function judgeMonitorId({ ctx, now, fail, blockedByPost }: RuleInput): Promise<void> {
  const title = `specgate no monitor ${now}`;
  const p = await post(ctx, { title });
  if (!p.event) return blockedByPost(p.res);
  const l = await listV2(ctx, { 'filter[from]': String(now - 60_000), 'filter[to]': String(now + 60_000), 'page[limit]': 1000 });
  const mine = l.data?.find((d) => field(inner(d), 'title') === title);
  if (!mine) return ctx.blocked('EVENTS-MON-STREAM', `the posted event "${title}" is not in GET /api/v2/events around its timestamp, so its monitor_id cannot be read`, l.res.exchange);
  const monitorId = field(inner(mine), 'monitor_id');
  if (monitorId !== undefined && monitorId !== null && monitorId !== '') fail(`an event posted with POST /api/v1/events (related to no monitor) has monitor_id ${String(monitorId)}; expected it empty`, l.res, { actual: monitorId });
}

/** The posted event as GET /api/v1/events answers it for a frame holding its date_happened (undefined: not there). */
async function readBackV1(ctx: CheckContext, event: Record<string, unknown>, now: number): Promise<{ res: CheckResponse; found?: Record<string, unknown> }> {
  const at = Number(event['date_happened'] ?? seconds(now));
  const res = await ctx.request({ operation: 'listEventsV1', query: { start: at - 60, end: at + 60, unaggregated: true } });
  const events = field(res.body, 'events');
  const idStr = String(event['id_str'] ?? event['id']);
  const found = Array.isArray(events) ? events.find((e) => String(field(e, 'id_str') ?? field(e, 'id')) === idStr) : undefined;
  return found && typeof found === 'object' ? { res, found: found as Record<string, unknown> } : { res };
}

/**
 * A text in the markdown form (`%%% \n` ... `\n %%%`) is accepted and read back by the v1 list
 * with its words: escape characters may be added in output, so only a word without markdown
 * characters is looked for.
 */
async function judgeMarkdown({ ctx, now, fail }: RuleInput): Promise<void> {
  const word = `specgatemarkdown${now}`;
  const text = `%%% \n**bold** ${word}\n %%%`;
  const p = await post(ctx, { title: 'specgate markdown', text });
  if (!p.event) return fail(`a post whose text is markdown (${JSON.stringify(text)}) was answered ${p.res.status}, not the event posted`, p.res, { actual: p.res.status });
  const back = await readBackV1(ctx, p.event, now);
  if (!back.found) return ctx.blocked('EVENTS-MON-STREAM', 'the event posted with a markdown text is not in GET /api/v1/events for a frame holding its date_happened', back.res.exchange);
  const got = field(back.found, 'text');
  if (typeof got !== 'string' || !got.includes(word)) fail(`the markdown text read back does not hold its word ${word}`, back.res, { expected: text, actual: got });
}

/** An event posted with a host that has a tag is read back carrying that tag (G: "tags of the host also apply to the event"). */
async function judgeHostTags({ ctx, now, fail, blockedByPost }: RuleInput): Promise<void> {
  const host = String(ctx.vars['mon_host']);
  const tag = String(ctx.vars['mon_host_tag']);
  const p = await post(ctx, { title: `specgate host ${now}`, host, tags: ['specgate:host-tags'] });
  if (!p.event) return blockedByPost(p.res);
  const back = await readBackV1(ctx, p.event, now);
  if (!back.found) return ctx.blocked('EVENTS-MON-STREAM', `the event posted with host ${host} is not in GET /api/v1/events for a frame holding its date_happened`, back.res.exchange);
  const tags = field(back.found, 'tags');
  if (!Array.isArray(tags) || !tags.includes(tag)) fail(`an event posted with host ${host} is read back with tags [${Array.isArray(tags) ? tags.join(', ') : String(tags)}]; the host's tag ${tag} applies to it`, back.res, { expected: tag, actual: tags });
}
