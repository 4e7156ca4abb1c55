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
}

/**
 * Sorts a recording by operation. The table's base URL is an expression a recording cannot
 * resolve, so a path that fits no template as a whole is tried again without its leading
 * segments: traffic recorded against `https://host/v1/notes` fits `/notes`.
 */
export function matchRecording(table: ApiTable, recording: Recording): RecordingMatch {
  const byOperation = new Map<string, MatchedExchange[]>();
  const unmatched: UnmatchedExchange[] = [];
  for (const recorded of recording.exchanges) {
    if (recorded.status === 0) {
      unmatched.push({ recorded, why: 'the recording holds no answer to it' });
      continue;
    }
    const m = matchBelowPrefix(table, recorded.method, recorded.url);
    if (m.ok) {
      const list = byOperation.get(m.operation.id) ?? [];
      list.push({ recorded, operation: m.operation, params: m.params });
      byOperation.set(m.operation.id, list);
    } else unmatched.push({ recorded, why: m.message });
  }
  return { byOperation, unmatched };
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
  return closest;
}
