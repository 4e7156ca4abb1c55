import { matchOperation } from '../api/match-exchange.js';
import type { ApiOperation, ApiTable } from '../api/table.js';
import type { RecordedExchange, Recording } from '../../targets/har/recording.js';

/** A recorded exchange and the operation of the suite's API table it was meant for. */
export interface MatchedExchange {
  recorded: RecordedExchange;
  operation: ApiOperation;
  /** Path parameters, decoded. */
  params: Record<string, string>;
}

/** A recorded exchange no operation fits, and why. */
export interface UnmatchedExchange {
  recorded: RecordedExchange;
  why: string;
}

export interface RecordingMatch {
  /** Operation ID -> its exchanges, in recording order. */
  byOperation: Map<string, MatchedExchange[]>;
  unmatched: UnmatchedExchange[];
  /** Every recorded exchange, in recording order: the writes a sequence's steps must not have between them. */
  recorded: readonly RecordedExchange[];
}

/**
 * Sorts a recording by operation. The table's base URL is an expression a recording cannot
 * resolve; its literal end (`/content/v2.1` of `${merchant_url}/content/v2.1`) is taken off a
 * path that carries it, and otherwise a path that fits no template as a whole is tried again
 * without its leading segments: traffic recorded against `https://host/v1/notes` fits `/notes`.
 */
export function matchRecording(table: ApiTable, recording: Recording): RecordingMatch {
  const byOperation = new Map<string, MatchedExchange[]>();
  const unmatched: UnmatchedExchange[] = [];
  for (const recorded of recording.exchanges) {
    if (recorded.status === 0) {
      unmatched.push({ recorded, why: 'the recording holds no answer to it' });
      continue;
    }
    const m = matchBelowBase(table, recorded.method, recorded.url);
    if (m.ok) {
      const list = byOperation.get(m.operation.id) ?? [];
      list.push({ recorded, operation: m.operation, params: m.params });
      byOperation.set(m.operation.id, list);
    } else unmatched.push({ recorded, why: m.message });
  }
  return { byOperation, unmatched, recorded: recording.exchanges };
}

/** The path the base URL expression ends with, after its last `${...}` (`/content/v2.1`), or '' when it ends with an expression. */
export function literalBaseTail(base: string): string {
  const tail = base.slice(base.lastIndexOf('}') + 1);
  let path = tail;
  try {
    // a literal base (`https://host/v1`) keeps only its path
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(tail)) path = new URL(tail).pathname;
  } catch {
    path = tail;
  }
  return path.replace(/\/+$/, '');
}

/** A method and URL (or path) matched to an operation below the table's base, as recorded traffic is. */
export function matchBelowBase(table: ApiTable, method: string, url: string): ReturnType<typeof matchOperation> {
  const tail = literalBaseTail(table.base);
  if (tail) {
    let path: string | undefined;
    try {
      path = new URL(url, 'http://relative.invalid').pathname;
    } catch {
      path = undefined;
    }
    const at = path?.indexOf(`${tail}/`) ?? -1;
    // the first place the base's own path appears: what follows it is the operation's path
    if (path !== undefined && at >= 0) {
      const m = matchOperation(table, method, path.slice(at + tail.length));
      if (m.ok) return m;
    }
  }
  return matchBelowPrefix(table, method, url);
}

function matchBelowPrefix(table: ApiTable, method: string, url: string): ReturnType<typeof matchOperation> {
  const whole = matchOperation(table, method, url);
  if (whole.ok) return whole;
  let path: string;
  try {
    path = new URL(url, 'http://relative.invalid').pathname;
  } catch {
    return whole;
  }
  const segs = path.split('/').filter((s) => s !== '');
  let closest = whole;
  for (let k = 1; k < segs.length; k++) {
    const m = matchOperation(table, method, `/${segs.slice(k).join('/')}`);
    if (m.ok) return m;
    // a path that fits with another method says more than "no such path"
    if (closest.ok === false && closest.reason === 'unknown-path' && m.reason === 'wrong-method') closest = m;
  }
  // an operation at its own base's root (path `/`, as a service on a host of its own): only a
  // recorded path that ends in `/` says the client asked for a root
  if (segs.length > 0 && path.endsWith('/')) {
    const root = matchOperation(table, method, '/');
    if (root.ok) return root;
  }
  return closest;
}
