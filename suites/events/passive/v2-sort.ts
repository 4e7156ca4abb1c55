import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { field, queryOf, verdict } from './recorded.js';
import { v2Page } from './v2-cursor.js';

/**
 * Order of the v2 event list (G, GET /api/v2/events): `sort=timestamp` answers oldest first,
 * `sort=-timestamp` newest first, by the events' `attributes.timestamp`.
 */
export const v2Sort: PassiveRule = {
  description: 'recorded v2 lists asked with sort: events oldest first for timestamp, newest first for -timestamp',
  requirements: ['EVENTS-MON-V2-SORT'],
  judge(view) {
    const findings: PassiveRuleFinding[] = [];
    let sorted = 0;
    for (const x of view.byOperation.get('listEventsV2') ?? []) {
      const sort = queryOf(x).get('sort');
      if (sort !== 'timestamp' && sort !== '-timestamp') continue;
      const page = v2Page(x);
      const times = page?.data.map((d) => Date.parse(String(field(field(d, 'attributes'), 'timestamp'))));
      if (!times || times.length < 2 || times.some((t) => !Number.isFinite(t))) continue;
      sorted++;
      const newestFirst = sort === '-timestamp';
      const at = times.findIndex((t, i) => i > 0 && (newestFirst ? t > (times[i - 1] ?? t) : t < (times[i - 1] ?? t)));
      if (at > 0)
        findings.push({ message: `sort=${sort}: event ${at} (${new Date(times[at] ?? 0).toISOString()}) comes after an event ${newestFirst ? 'older' : 'newer'} than it (${new Date(times[at - 1] ?? 0).toISOString()}), not ${newestFirst ? 'newest' : 'oldest'} first`, exchange: x });
    }
    return [verdict('EVENTS-MON-V2-SORT', sorted, findings, 'no v2 list asked with sort=timestamp or sort=-timestamp was answered with two events or more')];
  },
};
