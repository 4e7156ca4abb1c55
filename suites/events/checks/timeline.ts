import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { nowMs } from './support.js';

const DAY = 24 * 3600 * 1000;
/** Pages read at most: 300 events at 100 a page fit in 3, so 5 show an overlong timeline. */
const MAX_PAGES = 5;

interface TimelineArgs {
  operation: string;
  /** The requirement a timeline longer than 300 events breaks. */
  size: string;
  /** The requirement an event older than 30 days breaks. */
  age: string;
  /** The requirement that the operation answers 200 with an event array: without that answer, the case is blocked by it. */
  answers?: string;
}

/**
 * `events.timeline`: a platform event stream read page by page (per_page 100, page from 1) holds
 * at most 300 events, all created within the past 30 days, even when the stream has more or
 * older ones (spec 002 H, Events 2).
 */
export const timeline = defineCheck<TimelineArgs>({
  description: 'an event stream read to its end holds at most 300 events, none older than 30 days',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['operation', 'size', 'age'],
    properties: { operation: { type: 'string' }, size: { type: 'string' }, age: { type: 'string' }, answers: { type: 'string' } },
  },
  judges: 'case',
  async run(ctx: CheckContext, args) {
    const seen: unknown[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const res = await ctx.request({ operation: args.operation, query: { per_page: 100, page } });
      if (res.status !== 200 || !Array.isArray(res.body)) {
        const message = `${args.operation} answered page ${page} with ${res.status}, not an event array`;
        if (page === 1 && args.answers !== undefined) ctx.blocked(args.answers, message, res.exchange);
        if (page === 1) ctx.fail({ requirement: args.size, message, actual: res.status, exchange: res.exchange });
        break;
      }
      seen.push(...res.body);
      if (res.body.length < 100) break;
    }
    if (seen.length === 0) {
      const reason = `${args.operation} answered no events, so no timeline could be measured`;
      ctx.noEvidence(args.size, reason);
      ctx.noEvidence(args.age, reason);
      return;
    }
    ctx.observed(args.size, seen.length);
    ctx.observed(args.age, seen.length);
    if (seen.length > 300) ctx.fail({ requirement: args.size, message: `${args.operation} returned ${seen.length} events in ${MAX_PAGES} pages of 100 or fewer; the timeline holds at most 300`, expected: 300, actual: seen.length });
    const oldest = nowMs(ctx) - 30 * DAY;
    const old = seen.filter((e) => {
      const at = e && typeof e === 'object' ? (e as Record<string, unknown>)['created_at'] : undefined;
      return typeof at === 'string' && Date.parse(at) < oldest;
    });
    if (old.length) ctx.fail({ requirement: args.age, message: `${args.operation} returned ${old.length} event(s) created more than 30 days ago`, actual: old.slice(0, 3) });
  },
});
