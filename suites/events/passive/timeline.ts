import type { PassiveRule, PassiveRuleFinding, PassiveView } from '../../../src/engine/suite-module.js';
import { recordedPages } from './paging.js';
import { answeredAt, field, idOf, verdict } from './recorded.js';

const DAY = 24 * 3600 * 1000;
/** The timeline's size and age (H, Events 2). */
const TIMELINE_EVENTS = 300;
const TIMELINE_DAYS = 30;

/** The activity streams: the paged platform lists whose 200 answers are platform events (not issue events). */
function streamPages(view: PassiveView): ReturnType<typeof recordedPages> {
  return recordedPages(view).filter((p) => /(^|\/)platform-events$/.test(p.x.operation.responses['200'] ?? ''));
}

/**
 * The timeline of the activity streams (H, Events 2) in recorded answers: no event created more
 * than 30 days before the answer's `Date`, and no walk through the pages of one list (the same
 * URL but for `page`) showing more than 300 different events. A walk is an observation of the
 * size once it shows its end (pages 1 to a short last one); a longer one fails wherever it ends.
 */
export const timeline: PassiveRule = {
  description: 'recorded activity streams: no event older than 30 days before the answer, at most 300 events over a walk through the pages',
  requirements: ['EVENTS-PLAT-TIMELINE-30-DAYS', 'EVENTS-PLAT-TIMELINE-300'],
  judge(view) {
    const pages = streamPages(view);
    const old: PassiveRuleFinding[] = [];
    let dated = 0;
    for (const p of pages) {
      const at = answeredAt(p.x);
      if (at === undefined || !p.items.length) continue;
      dated++;
      const oldest = at - TIMELINE_DAYS * DAY;
      const before = p.items.filter((e) => {
        const created = field(e, 'created_at');
        return typeof created === 'string' && Date.parse(created) < oldest;
      });
      if (before.length)
        old.push({ message: `${before.length} event(s) created more than ${TIMELINE_DAYS} days before the answer's Date (${new Date(at).toISOString()})`, actual: before.slice(0, 3).map((e) => ({ id: idOf(e), created_at: field(e, 'created_at') })), exchange: p.x });
    }
    const long: PassiveRuleFinding[] = [];
    let walks = 0;
    for (const walk of new Set(pages.map((p) => p.walk))) {
      const of = pages.filter((p) => p.walk === walk);
      const ids = new Set(of.flatMap((p) => p.items.map((e) => idOf(e) ?? JSON.stringify(e))));
      const last = of[of.length - 1];
      if (!last) continue;
      if (ids.size > TIMELINE_EVENTS) {
        walks++;
        long.push({ message: `the pages of this list recorded hold ${ids.size} different events; a timeline holds at most ${TIMELINE_EVENTS}`, expected: TIMELINE_EVENTS, actual: ids.size, exchange: last.x });
      } else if (walkEnds(of)) walks++;
    }
    return [
      verdict('EVENTS-PLAT-TIMELINE-30-DAYS', dated, old, "no activity stream's events were recorded with the answer's Date header"),
      verdict('EVENTS-PLAT-TIMELINE-300', walks, long, 'no walk through the pages of an activity stream was recorded to its end (page 1 to a page shorter than the rest)'),
    ];
  },
};

/** Whether the pages recorded run from page 1 without a gap to a page shorter than its size: the whole timeline was read. */
function walkEnds(pages: ReturnType<typeof recordedPages>): boolean {
  const byNumber = new Map(pages.map((p) => [p.page ?? 1, p]));
  for (let n = 1; ; n++) {
    const p = byNumber.get(n);
    if (!p) return false;
    const size = Math.min(p.perPage ?? p.defaultSize, p.max);
    if (p.items.length < size) return true;
  }
}
