import type { ApiOperation } from '../../../src/engine/api/table.js';
import type { MatchedExchange } from '../../../src/engine/suite-module.js';
import type { PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';

/**
 * What the events suite's passive rules read of a recorded exchange: headers, query, bodies and
 * times, as a recording gives them.
 */

/** A response header's value (repeated ones joined). */
export function answerHeader(x: MatchedExchange, name: string): string | undefined {
  const v = x.recorded.responseHeaders[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** A request header's value, blank taken as absent. */
export function sentHeader(x: MatchedExchange, name: string): string | undefined {
  const v = x.recorded.requestHeaders[name.toLowerCase()];
  return v === undefined || v.trim() === '' ? undefined : v;
}

export function queryOf(x: MatchedExchange): URLSearchParams {
  return new URL(x.recorded.url).searchParams;
}

/** The URL without the query parameters named (sorted, so parameter order does not matter). */
export function urlWithout(x: MatchedExchange, ...names: string[]): string {
  const u = new URL(x.recorded.url);
  const q = new URLSearchParams(u.searchParams);
  for (const n of names) q.delete(n);
  q.sort();
  return `${x.recorded.method} ${u.origin}${u.pathname}?${q.toString()}`;
}

/** The same URL, its query in a stable order. */
export const sameUrl = (x: MatchedExchange): string => urlWithout(x);

export function field(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' && !Array.isArray(o) && Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** A JSON answer's body when the recording kept it whole (a cut or unparsed body is not read). */
export function bodyOf(x: MatchedExchange): unknown {
  return x.recorded.parseError === undefined ? x.recorded.responseBody : undefined;
}

/** The event array of a 200 answer to a platform list, when it was recorded. */
export function itemsOf(x: MatchedExchange): unknown[] | undefined {
  if (x.recorded.status !== 200) return undefined;
  const body = bodyOf(x);
  return Array.isArray(body) ? body : undefined;
}

/** An event's `id` as text, for comparing events across answers. */
export function idOf(item: unknown): string | undefined {
  const id = field(item, 'id');
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? String(id) : undefined;
}

/** The answer's `Date` header in ms, when it has a valid one. */
export function answeredAt(x: MatchedExchange): number | undefined {
  const d = answerHeader(x, 'date');
  const t = d === undefined ? NaN : Date.parse(d);
  return Number.isFinite(t) ? t : undefined;
}

/** Whether the answer's `Link` header has a `rel="next"` link: more events exist. */
export function hasNextLink(x: MatchedExchange): boolean {
  const link = answerHeader(x, 'link');
  return link !== undefined && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?/i.test(link);
}

/** Operations of the platform events API (part H): those that require its version header. */
export function platformOperations(view: PassiveView): ApiOperation[] {
  return view.table.operations.filter((o) => Object.keys(o.requiredHeaders).some((h) => h.toLowerCase() === 'x-platform-api-version'));
}

/** Every recorded exchange of the operations given, in recording order. */
export function exchangesOf(view: PassiveView, ops: readonly string[]): MatchedExchange[] {
  const wanted = new Set(ops);
  return view.exchanges.filter((x) => wanted.has(x.operation.id));
}

/** A requirement's verdict: the findings on what was judged, or what the recording lacks. */
export function verdict(requirement: string, observations: number, findings: PassiveRuleFinding[], lacking: string): PassiveVerdict {
  return { requirement, observations, findings, ...(observations === 0 ? { lacking } : {}) };
}
