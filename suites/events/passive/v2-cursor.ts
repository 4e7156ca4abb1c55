import type { MatchedExchange } from '../../../src/engine/suite-module.js';
import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { bodyOf, field, queryOf, urlWithout, verdict } from './recorded.js';

/** The events of a v2 list answer by ID, and its `meta.page.after`, when the body was recorded. */
export function v2Page(x: MatchedExchange): { ids: string[]; after?: string; data: unknown[] } | undefined {
  if (x.recorded.status !== 200) return undefined;
  const body = bodyOf(x);
  const data = field(body, 'data');
  if (!Array.isArray(data)) return undefined;
  const ids = data.map((d) => field(d, 'id')).filter((id): id is string => typeof id === 'string');
  const after = field(field(field(body, 'meta'), 'page'), 'after');
  return { ids, data, ...(typeof after === 'string' && after !== '' ? { after } : {}) };
}

/**
 * Cursor continuity of the v2 event list (G, GET /api/v2/events): the page asked with
 * `page[cursor]` set to an earlier answer's `meta.page.after`, the other parameters the same,
 * answers the next results, so none of the events of that earlier page again.
 */
export const v2Cursor: PassiveRule = {
  description: 'recorded v2 cursor pages: the page a cursor leads to repeats none of the events of the page that gave it',
  requirements: ['EVENTS-MON-V2-CURSOR'],
  judge(view) {
    const answered: { x: MatchedExchange; after: string; ids: string[]; rest: string }[] = [];
    const findings: PassiveRuleFinding[] = [];
    let pairs = 0;
    for (const x of view.byOperation.get('listEventsV2') ?? []) {
      const page = v2Page(x);
      if (!page) continue;
      const rest = urlWithout(x, 'page[cursor]');
      const cursor = queryOf(x).get('page[cursor]');
      const source = cursor ? answered.filter((a) => a.after === cursor && a.rest === rest).pop() : undefined;
      if (source) {
        pairs++;
        const seen = new Set(source.ids);
        const again = page.ids.filter((id) => seen.has(id));
        if (again.length)
          findings.push({ message: `the page of page[cursor]=${cursor ?? ''} (the meta.page.after of entry ${source.x.recorded.index}) repeats ${again.length} event(s) of that page`, actual: again.slice(0, 5), exchange: x });
      }
      if (page.after !== undefined) answered.push({ x, after: page.after, ids: page.ids, rest });
    }
    return [verdict('EVENTS-MON-V2-CURSOR', pairs, findings, 'no v2 list was asked with page[cursor] set to the meta.page.after of a recorded answer, the other parameters the same')];
  },
};
