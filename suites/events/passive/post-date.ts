import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { answeredAt, asNumber, bodyOf, field, verdict } from './recorded.js';

const HOUR = 3600;
/** `date_happened` may lie this far in the past and in the future (G, Limits). */
const PAST_HOURS = 18;
const FUTURE_HOURS = 2;
/** A `Date` header counts whole seconds, and the post was made a moment before it: the window is widened by this much. */
const SLACK_SECONDS = 60;

function postedDate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    const v = field(JSON.parse(text) as unknown, 'date_happened');
    return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The posting window of `date_happened` (G, Limits): a post whose date lies more than 18 hours
 * before, or 2 hours after, the answer's `Date` is refused, or at least does not enter the
 * stream with that date; a 2xx answer whose event carries the date posted fails.
 */
export const postDate: PassiveRule = {
  description: 'recorded posts of events dated outside 18 hours before to 2 hours after the answer: refused, or not stored with that date',
  requirements: ['EVENTS-MON-DATE-WINDOW'],
  judge(view) {
    const findings: PassiveRuleFinding[] = [];
    let outside = 0;
    for (const x of view.byOperation.get('postEvent') ?? []) {
      const posted = postedDate(x.recorded.requestBody);
      const at = answeredAt(x);
      if (posted === undefined || at === undefined) continue;
      const now = Math.floor(at / 1000);
      const early = posted < now - PAST_HOURS * HOUR - SLACK_SECONDS;
      const late = posted > now + FUTURE_HOURS * HOUR + SLACK_SECONDS;
      if (!early && !late) continue;
      const status = x.recorded.status;
      if (status < 200 || status > 299) {
        outside++;
        continue;
      }
      const stored = asNumber(field(field(bodyOf(x), 'event'), 'date_happened'));
      if (stored === undefined) continue;
      outside++;
      if (stored === posted)
        findings.push({ message: `date_happened ${posted} lies ${early ? `more than ${PAST_HOURS} hours before` : `more than ${FUTURE_HOURS} hours after`} the answer's Date (${new Date(at).toISOString()}), yet the post was answered ${status} with an event of that date`, expected: 'Bad Request, or another date', actual: stored, exchange: x });
    }
    return [verdict('EVENTS-MON-DATE-WINDOW', outside, findings, "no event was posted with a date_happened outside 18 hours before to 2 hours after the answer's Date")];
  },
};
