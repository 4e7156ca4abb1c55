import { dateHappened, newestFirst, PRIORITIES, V1_LIMIT, V1_PAGE_SIZE, type MonitorEvent, type Priority } from './monitor-event.js';
import { done, invalid, type Outcome } from './outcome.js';

/** The query of GET /api/v1/events (G, its parameter table), parsed. */
export interface V1Query {
  /** POSIX seconds, inclusive. */
  start: number;
  end: number;
  priority?: Priority;
  /** Lower-case source names; an event matches one of them. */
  sources?: string[];
  /** An event matches when it carries every tag listed. */
  tags?: string[];
  unaggregated: boolean;
  excludeAggregate: boolean;
  /** 0-based; only honoured with `unaggregated` or `exclude_aggregate`. */
  page: number;
}

const INTEGER = /^-?\d+$/;
const list = (v: string): string[] => v.split(',').map((s) => s.trim()).filter(Boolean);

function flag(name: string, v: string | null, problems: string[]): boolean {
  if (v === null || v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  problems.push(`${name} must be true or false`);
  return false;
}

/**
 * Parses the query: `start` and `end` are required integers (400 otherwise), `priority` one of
 * low/normal, `page` a non-negative integer, the flags true/false. `get` reads one parameter.
 */
export function parseV1Query(get: (name: string) => string | null): Outcome<V1Query> {
  const problems: string[] = [];
  const seconds = (name: string): number => {
    const v = get(name);
    if (v === null || v === '') problems.push(`${name} is required (POSIX seconds)`);
    else if (!INTEGER.test(v)) problems.push(`${name} must be an integer of POSIX seconds`);
    else return Number(v);
    return 0;
  };
  const start = seconds('start');
  const end = seconds('end');
  const p = get('priority');
  const priority = p === null || p === '' ? undefined : PRIORITIES.find((x) => x === p);
  if (p !== null && p !== '' && priority === undefined) problems.push('priority must be low or normal');
  const pageText = get('page');
  const page = pageText === null || pageText === '' ? 0 : /^\d+$/.test(pageText) ? Number(pageText) : -1;
  if (page < 0) problems.push('page must be a non-negative integer');
  const unaggregated = flag('unaggregated', get('unaggregated'), problems);
  const excludeAggregate = flag('exclude_aggregate', get('exclude_aggregate'), problems);
  const sources = get('sources');
  const tags = get('tags');
  if (problems.length) return invalid(...problems);
  return done({
    start,
    end,
    ...(priority ? { priority } : {}),
    ...(sources ? { sources: list(sources).map((s) => s.toLowerCase()) } : {}),
    ...(tags ? { tags: list(tags) } : {}),
    unaggregated: unaggregated || excludeAggregate,
    excludeAggregate,
    page,
  });
}

/**
 * Every event the query matches, most recent first, before the result limit: in
 * [start, end], of the priority, of one of the sources, with every tag. Without
 * `unaggregated`, a member of an aggregation group whose aggregate parent lies outside
 * [start, end] is left out; `exclude_aggregate` leaves out the aggregate parents themselves.
 */
export function matchV1(events: Iterable<MonitorEvent>, q: V1Query, byId: (id: bigint) => MonitorEvent | undefined): MonitorEvent[] {
  const inWindow = (e: MonitorEvent): boolean => dateHappened(e) >= q.start && dateHappened(e) <= q.end;
  const out: MonitorEvent[] = [];
  for (const e of events) {
    if (!inWindow(e)) continue;
    if (q.priority && e.priority !== q.priority) continue;
    if (q.sources && !q.sources.includes(e.sourceTypeName.toLowerCase())) continue;
    if (q.tags && !q.tags.every((t) => e.tags.includes(t))) continue;
    if (q.excludeAggregate && e.isAggregate) continue;
    if (!q.unaggregated && e.relatedEventId !== undefined) {
      const parent = byId(e.relatedEventId);
      if (parent?.isAggregate && !inWindow(parent)) continue;
    }
    out.push(e);
  }
  return out.sort(newestFirst);
}

/**
 * The page GET /api/v1/events answers: at most {@link V1_LIMIT} of the matches; `page` moves
 * by {@link V1_PAGE_SIZE} only when the query is unaggregated (the spec makes `page` usable
 * only then; otherwise it is ignored).
 */
export function pageV1(matches: readonly MonitorEvent[], q: V1Query, limit = V1_LIMIT): MonitorEvent[] {
  const page = q.unaggregated ? q.page : 0;
  return matches.slice(page * V1_PAGE_SIZE, page * V1_PAGE_SIZE + limit);
}
