import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { answerHeader, exchangesOf, platformOperations, verdict } from './recorded.js';

/** Every 200 of a platform endpoint carries ETag and X-Poll-Interval (H, Polling rules). */
export const pollingHeaders: PassiveRule = {
  description: 'every recorded 200 of a platform endpoint carries ETag and X-Poll-Interval',
  requirements: ['EVENTS-PLAT-ETAG', 'EVENTS-PLAT-POLL-INTERVAL'],
  judge(view) {
    const answers = exchangesOf(view, platformOperations(view).map((o) => o.id)).filter((x) => x.recorded.status === 200);
    const lacking = 'the recording holds no 200 answer of a platform endpoint';
    const missing = (header: string, valid: (v: string) => boolean): PassiveRuleFinding[] =>
      answers.flatMap((x) => {
        const v = answerHeader(x, header);
        if (v !== undefined && valid(v.trim())) return [];
        return [{ message: v === undefined ? `the 200 answer carries no ${header}` : `the 200 answer's ${header} is "${v}"`, actual: v ?? null, exchange: x }];
      });
    return [
      verdict('EVENTS-PLAT-ETAG', answers.length, missing('ETag', (v) => v !== ''), lacking),
      // a number of seconds
      verdict('EVENTS-PLAT-POLL-INTERVAL', answers.length, missing('X-Poll-Interval', (v) => /^\d+$/.test(v)), lacking),
    ];
  },
};
