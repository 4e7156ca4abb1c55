import { templateParams } from '../api/table.js';
import type { RecordedExchange } from '../../targets/har/recording.js';
import type { MatchedExchange } from './match-recording.js';
import type { RequestPattern } from './request-pattern.js';

/** Methods that do not change what the service holds (RFC 9110 §9.2.1, safe methods). */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** Whether a recorded request may change what the service holds: any method but the safe ones. */
export function isWrite(method: string): boolean {
  return !SAFE.has(method.toUpperCase());
}

/**
 * Whether a recorded exchange may have changed what the service holds: a write (`isWrite`) not
 * refused by its answer. A 4xx or 5xx answer says the request was not carried out; status 0 (no
 * answer recorded) leaves the outcome unknown, so it counts.
 */
export function mayHaveWritten(x: Pick<RecordedExchange, 'method' | 'status'>): boolean {
  return isWrite(x.method) && !(x.status >= 400 && x.status <= 599);
}

/** An item a case addresses: the recorded path up to the segment of one path parameter, decoded. */
interface Item {
  /** The origin (scheme, host, port) of the recorded request: a write elsewhere is on another service's item. */
  origin: string;
  segments: string[];
  /** The entries of the matched steps that address it, or whose answer gave its ID. */
  entries: number[];
}

/** A write between two steps on the item they address, which makes their sequence stand for nothing. */
export interface InterleavedWrite {
  /** The recorded write. */
  write: RecordedExchange;
  /** The item's path, as recorded. */
  item: string;
  /** The entries of the steps it falls between. */
  between: [number, number];
}

/**
 * The first recorded write that falls between the matched steps of a case on an item they
 * address, or undefined when there is none. A case's steps address an item when they fill in a
 * path parameter themselves (not the table's default): every step that addresses the same
 * recorded item path, and the earlier step whose `capture:` gave a variable that parameter
 * reads, span an interval of the recording; any other recorded exchange inside it, with a
 * method that is not safe and an answer that did not refuse it (`mayHaveWritten`), to the same
 * origin, on that path or below it (`/items/7`, `/items/7/parts`, `/items/7:restore`), may have
 * changed what the later steps read. Only the recording's order (entry index) counts; an
 * exchange the steps matched is never its own interference.
 * `recorded` is every recorded exchange in entry order (the recording's own order).
 */
export function interleavedWrite(patterns: readonly RequestPattern[], chosen: ReadonlyMap<number, MatchedExchange>, recorded: readonly RecordedExchange[]): InterleavedWrite | undefined {
  const items = new Map<string, Item>();
  for (const p of patterns) {
    const x = chosen.get(p.step);
    if (!x) continue;
    for (const name of p.addresses) {
      const segments = itemSegments(x, name);
      if (!segments) continue;
      const origin = originOf(x.recorded.url);
      const key = `${origin} /${segments.join('/')}`;
      const item = items.get(key) ?? { origin, segments, entries: [] };
      item.entries.push(x.recorded.index);
      // the step whose answer gave the ID opens the interval: what it made is what the later steps read
      for (const v of varsIn(p.params[name]))
        for (const q of patterns) {
          const y = chosen.get(q.step);
          if (y && q.step < p.step && q.capture && Object.hasOwn(q.capture, v)) item.entries.push(y.recorded.index);
        }
      items.set(key, item);
    }
  }
  const own = new Set([...chosen.values()].map((x) => x.recorded.index));
  for (const item of items.values()) {
    const from = Math.min(...item.entries);
    const to = Math.max(...item.entries);
    if (to - from < 2) continue;
    // the recording is in entry order: only the exchanges between the two are read
    for (let i = firstAfter(recorded, from); i < recorded.length && (recorded[i] as RecordedExchange).index < to; i++) {
      const w = recorded[i] as RecordedExchange;
      if (own.has(w.index) || !mayHaveWritten(w) || originOf(w.url) !== item.origin) continue;
      const path = decodedSegments(w.url);
      if (path && touches(path, item.segments)) return { write: w, item: `/${item.segments.join('/')}`, between: [from, to] };
    }
  }
  return undefined;
}

/** The position of the first exchange whose entry comes after `entry` (binary search: `recorded` is in entry order). */
function firstAfter(recorded: readonly RecordedExchange[], entry: number): number {
  let lo = 0;
  let hi = recorded.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((recorded[mid] as RecordedExchange).index <= entry) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The recorded path's segments (decoded) up to and including parameter `name` of the exchange's operation. */
function itemSegments(x: MatchedExchange, name: string): string[] | undefined {
  const recorded = decodedSegments(x.recorded.url);
  if (!recorded) return undefined;
  const template = x.operation.path.split('/').filter((s) => s !== '');
  const at = template.findIndex((s) => templateParams(`/${s}`).includes(name));
  const value = x.params[name];
  if (at < 0 || value === undefined) return undefined;
  // the operation's path is the end of the recorded one (a base path may come before it)
  const start = recorded.length - template.length;
  if (start < 0) return undefined;
  return [...recorded.slice(0, start + at), value];
}

/** Whether a write's path is the item's path or below it; the last segment may go on with `:verb` (a custom method on the item). */
function touches(path: readonly string[], item: readonly string[]): boolean {
  if (path.length < item.length) return false;
  const last = item.length - 1;
  for (let i = 0; i < last; i++) if (path[i] !== item[i]) return false;
  const seg = path[last] as string;
  const id = item[last] as string;
  return seg === id || (path.length === item.length && seg.startsWith(`${id}:`));
}

/** The recorded URL's origin (`http://h:8080`); a relative URL's is the same for every relative one. */
function originOf(url: string): string {
  try {
    return new URL(url, 'http://relative.invalid').origin;
  } catch {
    return '';
  }
}

function decodedSegments(url: string): string[] | undefined {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://relative.invalid').pathname;
  } catch {
    return undefined;
  }
  return pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** The variable names a template reads (`${product}` -> product). */
function varsIn(template: unknown): string[] {
  if (typeof template !== 'string') return [];
  return [...template.matchAll(/\$\{\s*([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
}
