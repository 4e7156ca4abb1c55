import { SpecgateError } from '../../../src/errors.js';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { field, nowMs, ok, refused, seconds } from './support.js';

/** The posting rules of spec 002 G (Event v1 request; Limits) one case each judges. */
type Rule = 'required' | 'text-limit' | 'aggregation-key-limit' | 'date-window';

interface Probe {
  /** What the event is, for messages. */
  what: string;
  fields: Record<string, unknown>;
  accept: boolean;
  /**
   * For a probe outside a bound that the target may also meet by shortening (G Limits: which of
   * the two is not shown): whether a 2xx answer's event keeps to the bound.
   */
  keptWithin?: (event: unknown) => boolean;
}

/** Characters as a person counts them (code points). */
const characters = (s: string): number => [...s].length;

const HOUR = 3600 * 1000;

/** The events a rule sends: one just inside each bound (accepted), one just outside (refused). */
function probes(rule: Rule, now: number): Probe[] {
  const base = { title: 'specgate post rule', text: 'posted by specgate', date_happened: seconds(now) };
  switch (rule) {
    case 'required':
      return [
        { what: 'an event with title and text', fields: base, accept: true },
        { what: 'an event without title', fields: { text: base.text }, accept: false },
        { what: 'an event without text', fields: { title: base.title }, accept: false },
      ];
    case 'text-limit':
      return [
        { what: 'an event with 4000 characters of text', fields: { ...base, text: 'x'.repeat(4000) }, accept: true },
        {
          what: 'an event with 4001 characters of text',
          fields: { ...base, text: 'x'.repeat(4001) },
          accept: false,
          keptWithin: (event) => { const t = field(event, 'text'); return typeof t === 'string' && characters(t) <= 4000; },
        },
      ];
    case 'aggregation-key-limit':
      return [
        { what: 'an aggregation_key of 100 characters', fields: { ...base, aggregation_key: 'k'.repeat(100) }, accept: true },
        { what: 'an aggregation_key of 101 characters', fields: { ...base, aggregation_key: 'k'.repeat(101) }, accept: false },
      ];
    case 'date-window':
      // a minute inside and outside each bound, so the clocks of specgate and target may differ by less
      return [
        { what: 'date_happened 17 h 59 min in the past', fields: { ...base, date_happened: seconds(now - 18 * HOUR + 60_000) }, accept: true },
        { what: 'date_happened 18 h 1 min in the past', fields: { ...base, date_happened: seconds(now - 18 * HOUR - 60_000) }, accept: false },
        { what: 'date_happened 1 h 59 min in the future', fields: { ...base, date_happened: seconds(now + 2 * HOUR - 60_000) }, accept: true },
        { what: 'date_happened 2 h 1 min in the future', fields: { ...base, date_happened: seconds(now + 2 * HOUR + 60_000) }, accept: false },
      ];
  }
}

/**
 * `events.postRules`: POST /api/v1/events accepts an event just inside one of the spec's bounds
 * (title and text required; text at most 4000 characters; aggregation_key at most 100;
 * date_happened from 18 hours in the past to two hours in the future) and refuses one just
 * outside it. The numeric statuses are not shown: accepted is any 2xx, refused any 4xx. A text
 * over 4000 characters may also be accepted when the event answered keeps to 4000 (refused or
 * stored shortened: which of the two is not shown).
 */
export const postRules = defineCheck<{ rule: Rule }>({
  description: 'POST /api/v1/events accepts an event just inside a bound of the spec and refuses one just outside it (2xx / 4xx)',
  args: { type: 'object', additionalProperties: false, required: ['rule'], properties: { rule: { enum: ['required', 'text-limit', 'aggregation-key-limit', 'date-window'] } } },
  judges: 'case',
  async run(ctx: CheckContext, args) {
    if (!ctx.api) throw new SpecgateError('SG_SUITE_SCHEMA', `suite ${ctx.suite} has no api.yaml`);
    for (const p of probes(args.rule, nowMs(ctx))) {
      const res = await ctx.request({ operation: 'postEvent', json: p.fields });
      if (p.accept && !ok(res)) ctx.fail({ message: `${p.what} is within the spec's bounds and was refused with ${res.status}`, actual: res.status, exchange: res.exchange });
      if (!p.accept && p.keptWithin && ok(res)) {
        if (!p.keptWithin(field(res.body, 'event'))) ctx.fail({ message: `${p.what} was accepted (${res.status}) and answered with the event beyond the spec's bound; expected a refusal (4xx) or the event shortened to the bound`, actual: res.status, exchange: res.exchange });
        continue;
      }
      if (!p.accept && !refused(res)) ctx.fail({ message: `${p.what} is outside the spec's bounds and was answered ${res.status}; expected a refusal (4xx)`, actual: res.status, exchange: res.exchange });
    }
  },
});
