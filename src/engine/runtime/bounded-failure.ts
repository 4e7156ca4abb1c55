import type { Exchange } from '../model.js';
import { cutText } from '../../targets/text-cut.js';
import { boundedValue } from './bounded-value.js';

/** Characters kept of a finding's message (then the cut mark and how many more there were). */
export const KEPT_MESSAGE_CHARS = 8192;

/** What every finding holds that a target can make large. */
interface Finding {
  message: string;
  expected?: unknown;
  actual?: unknown;
  detail?: unknown;
  exchange?: Exchange;
}

/**
 * A finding with its message and values bounded: a failure must not keep a whole hostile answer
 * alive to the report, nor while a property shrinks it (a check may quote what it got in its
 * message). A finding within every bound is returned as it is.
 */
export function boundedFinding<F extends Finding>(f: F): F {
  const message = cutText(f.message, KEPT_MESSAGE_CHARS);
  const expected = f.expected === undefined ? undefined : boundedValue(f.expected);
  const actual = f.actual === undefined ? undefined : boundedValue(f.actual);
  const detail = f.detail === undefined ? undefined : boundedValue(f.detail);
  const exchange = f.exchange ? boundedExchange(f.exchange) : undefined;
  if (message === f.message && expected === f.expected && actual === f.actual && detail === f.detail && exchange === f.exchange) return f;
  const out: F = { ...f, message };
  if (expected !== undefined) out.expected = expected;
  if (actual !== undefined) out.actual = actual;
  if (detail !== undefined) out.detail = detail;
  if (exchange) out.exchange = exchange;
  return out;
}

/** An exchange with what a check described of the request and the answer bounded (a check may describe a whole answer). */
export function boundedExchange(x: Exchange): Exchange {
  const request = boundedValue(x.request);
  const response = boundedValue(x.response);
  return request === x.request && response === x.response ? x : { ...x, request, response };
}
