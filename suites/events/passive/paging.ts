import type { MatchedExchange } from '../../../src/engine/suite-module.js';
import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { exchangesOf, hasNextLink, idOf, itemsOf, queryOf, urlWithout, verdict } from './recorded.js';

/** One recorded page of a platform list: its answer's events and the paging it asked for. */
interface Page {
  x: MatchedExchange;
  items: unknown[];
  /** `per_page` asked, when the request gave an integer. */
  perPage?: number;
  /** `page` asked, when the request gave an integer. */
  page?: number;
  /** The URL without `page`: the pages of one walk share it. */
  walk: string;
  defaultSize: number;
  max: number;
}

const integer = (v: string | null): number | undefined => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);

/** The 200 answers of the platform's paged lists (api.yaml `paging`), with their events. */
export function recordedPages(view: Parameters<PassiveRule['judge']>[0]): Page[] {
  const paged = view.table.operations.filter((o) => o.paging?.style === 'page');
  return exchangesOf(view, paged.map((o) => o.id)).flatMap((x) => {
    const items = itemsOf(x);
    const paging = x.operation.paging;
    if (!items || !paging) return [];
    const q = queryOf(x);
    const perPage = q.has(paging.limit) ? integer(q.get(paging.limit)) : undefined;
    const page = q.has(paging.position) ? integer(q.get(paging.position)) : undefined;
    if ((q.has(paging.limit) && perPage === undefined) || (q.has(paging.position) && page === undefined)) return [];
    return [{ x, items, ...(perPage !== undefined ? { perPage } : {}), ...(page !== undefined ? { page } : {}), walk: urlWithout(x, paging.position), defaultSize: paging.default, max: paging.max }];
  });
}

/** The events of a page as a comparable list of IDs (the events themselves when they have none). */
const idsOf = (p: Page): string => JSON.stringify(p.items.map((i) => idOf(i) ?? JSON.stringify(i)));

/** Whether the recording shows events beyond this page: a `next` link, or a later page of the same walk that holds some. */
function moreExist(p: Page, pages: readonly Page[]): boolean {
  return hasNextLink(p.x) || pages.some((o) => o.walk === p.walk && (o.page ?? 1) > (p.page ?? 1) && o.items.length > 0);
}

/**
 * Paging of the platform lists (H, Limits), from the sizes of recorded pages: without
 * `per_page` a page holds the default (15 on /events, 30 elsewhere) when more events exist than
 * it holds, never more; no page holds more than 100 events, whatever `per_page` asks; and a list
 * without `page` answers page 1 (judged where the recording also holds page 1 of the same list:
 * the same events, or, on a changed stream, not the events of another recorded page).
 */
export const paging: PassiveRule = {
  description: 'recorded pages of the platform lists: the default and largest page size, and page 1 by default',
  requirements: ['EVENTS-PLAT-PER-PAGE-DEFAULT', 'EVENTS-PLAT-PER-PAGE-MAX', 'EVENTS-PLAT-PAGE-DEFAULT'],
  judge(view) {
    const pages = recordedPages(view);
    const defaults: PassiveRuleFinding[] = [];
    let defaultSeen = 0;
    for (const p of pages.filter((p) => p.perPage === undefined)) {
      const n = p.items.length;
      if (n > p.defaultSize) defaults.push({ message: `without per_page, answered ${n} events, more than the default ${p.defaultSize}`, expected: p.defaultSize, actual: n, exchange: p.x });
      else if (n < p.defaultSize && moreExist(p, pages)) defaults.push({ message: `without per_page, answered ${n} events though more exist (a next page), not the default ${p.defaultSize}`, expected: p.defaultSize, actual: n, exchange: p.x });
      else if (n < p.defaultSize) continue;
      defaultSeen++;
    }
    const maxima: PassiveRuleFinding[] = [];
    let maxSeen = 0;
    for (const p of pages) {
      const n = p.items.length;
      if (n > p.max) maxima.push({ message: `answered ${n} events on one page${p.perPage !== undefined ? ` (per_page=${p.perPage})` : ''}, more than ${p.max}`, expected: p.max, actual: n, exchange: p.x });
      else if ((p.perPage ?? 0) <= p.max) continue;
      maxSeen++;
    }
    const firsts: PassiveRuleFinding[] = [];
    let firstSeen = 0;
    for (const p of pages.filter((p) => p.page === undefined)) {
      const walk = pages.filter((o) => o.walk === p.walk && o.page !== undefined);
      const one = walk.filter((o) => o.page === 1);
      if (!one.length) continue;
      const ids = idsOf(p);
      if (one.some((o) => idsOf(o) === ids)) {
        firstSeen++;
        continue;
      }
      const other = walk.find((o) => o.page !== 1 && o.items.length > 0 && idsOf(o) === ids);
      if (!other) continue;
      firstSeen++;
      firsts.push({ message: `without page, answered the events of page ${String(other.page)} (entry ${other.x.recorded.index}), not those of page 1`, expected: 1, actual: other.page, exchange: p.x });
    }
    return [
      verdict('EVENTS-PLAT-PER-PAGE-DEFAULT', defaultSeen, defaults, 'no platform list was asked without per_page and answered a page of its default size, or fewer while more events exist'),
      verdict('EVENTS-PLAT-PER-PAGE-MAX', maxSeen, maxima, 'no platform list was asked for more than 100 events a page, and none answered more'),
      verdict('EVENTS-PLAT-PAGE-DEFAULT', firstSeen, firsts, 'no platform list was recorded both without page and with page=1'),
    ];
  },
};
