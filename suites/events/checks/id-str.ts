import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { field, nowMs, ok, seconds } from './support.js';

const HOUR = 3600 * 1000;

/** Why an event's id_str is not its id, or undefined when it is. */
function mismatch(event: unknown): string | undefined {
  const id = field(event, 'id');
  const idStr = field(event, 'id_str');
  if (typeof id !== 'bigint' && !(typeof id === 'number' && Number.isSafeInteger(id))) return `id ${String(id)} is not an exact integer (an int64 must be sent as an integer)`;
  if (typeof idStr !== 'string') return `id_str is ${idStr === undefined ? 'missing' : typeof idStr}`;
  return idStr === id.toString() ? undefined : `id_str "${idStr}" is not id ${id.toString()}`;
}

/**
 * `events.idStr`: every version 1 event carries `id_str`, the string form of its int64 `id`, and
 * the two are the same number to the last digit (the point of id_str is to avoid precision
 * loss): on the event a POST answers, and on every event of a list of the last 18 hours.
 */
export const idStr = defineCheck<Record<string, never>>({
  description: 'id_str of every v1 event (posted and listed) is its int64 id written in full',
  args: { type: 'object', additionalProperties: false, properties: {} },
  judges: 'case',
  async run(ctx: CheckContext) {
    const now = nowMs(ctx);
    const posted = await ctx.request({ operation: 'postEvent', json: { title: 'specgate id_str', text: 'checks id_str', date_happened: seconds(now) } });
    if (!ok(posted)) return ctx.fail({ message: `POST /api/v1/events answered ${posted.status}; cannot read the posted event`, actual: posted.status, exchange: posted.exchange });
    const bad = mismatch(field(posted.body, 'event'));
    if (bad) ctx.fail({ message: `the posted event: ${bad}`, actual: field(posted.body, 'event'), exchange: posted.exchange });
    const list = await ctx.request({ operation: 'listEventsV1', query: { start: seconds(now - 18 * HOUR), end: seconds(now + HOUR), unaggregated: true } });
    const events = field(list.body, 'events');
    if (!ok(list) || !Array.isArray(events)) return ctx.fail({ message: `GET /api/v1/events answered ${list.status} without an events array`, actual: list.status, exchange: list.exchange });
    const wrong = events.map((e) => ({ e, why: mismatch(e) })).filter((x) => x.why);
    if (wrong.length) ctx.fail({ message: `${wrong.length} of ${events.length} listed events: ${wrong.slice(0, 3).map((x) => x.why).join('; ')}`, actual: wrong.slice(0, 3).map((x) => x.e), exchange: list.exchange });
  },
});
