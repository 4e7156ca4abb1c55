import { SpecgateError } from '../errors.js';
import { isStopped, onceStopped, type RequestStop } from './stop-source.js';
import type { HttpRequest, HttpResponse } from './types.js';

/**
 * How a run treats a target that throttles it (`--max-wait`, `--rate`). A rate limit is not a
 * conformance rule of the protocols specgate judges: a 429, or a 503 with `Retry-After`, says
 * "not now", not "wrong". So such an answer is waited out and the request sent again, as long as
 * the waits of one request stay within `maxWaitMs`; past it, the request ends in
 * SG_TARGET_THROTTLED, which makes its case untested ("throttled"), never failed.
 */
export interface ThrottlePolicy {
  /** The longest one request waits on throttling answers, all its retries together (ms). */
  maxWaitMs: number;
  /** Requests per second across the whole run (`--rate`); unpaced when undefined. */
  ratePerSecond?: number;
}

/** What a throttled send waits with; tests give their own. */
export interface ThrottleTimers {
  now(): number;
  /** Resolves after `ms`, or rejects with the stop's reason when `stop` fires first. */
  sleep(ms: number, stop: RequestStop | undefined): Promise<void>;
}

/** The limits specgate keeps when a run says nothing. */
export const THROTTLE_DEFAULTS = { maxWaitMs: 30_000 } as const;

/** A 429 without `Retry-After` is waited out after 1 s, then 2 s, 4 s, … (within the budget). */
const FIRST_BACKOFF_MS = 1_000;

/**
 * The wait a throttling answer asks for, in ms, or undefined when the answer is not throttling:
 * a 429 (with `Retry-After`, or else a backoff doubling with each attempt), or a 503 with
 * `Retry-After` (a 503 without one is an answer like any other). `Retry-After` is either
 * delay-seconds or an HTTP date (RFC 9110 §10.2.3); a date in the past asks for no wait.
 */
export function throttleWait(res: Pick<HttpResponse, 'status' | 'headers'>, attempt: number, now: number): number | undefined {
  if (res.status !== 429 && res.status !== 503) return undefined;
  const raw = res.headers['retry-after'];
  const header = typeof raw === 'string' ? raw.trim() : undefined;
  const asked = header === undefined ? undefined : retryAfterMs(header, now);
  if (asked !== undefined) return asked;
  return res.status === 429 ? FIRST_BACKOFF_MS * 2 ** attempt : undefined;
}

/** `Retry-After` in ms from `now`: delay-seconds or an HTTP date; undefined when it is neither. */
export function retryAfterMs(value: string, now: number): number | undefined {
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) || !/[a-z]/i.test(value) ? undefined : Math.max(0, at - now);
}

const realTimers: ThrottleTimers = {
  now: () => Date.now(),
  sleep: (ms, stop) => sleepStopping(ms, stop),
};

/**
 * One run's throttling: its pace (`ratePerSecond`, shared by every client of the run) and what
 * each origin said about when to come back. Once an origin asked for a wait longer than the
 * budget, requests to it before that time end at once (nothing is sent: that would only spend
 * the quota again).
 */
export class Throttle {
  private nextSlot = 0;
  private readonly closedUntil = new Map<string, { until: number; said: string }>();

  constructor(
    readonly policy: ThrottlePolicy,
    private readonly timers: ThrottleTimers = realTimers,
  ) {}

  /**
   * Sends `req` with `sendOnce` at the run's pace, waiting out throttling answers within the
   * budget; rejects with SG_TARGET_THROTTLED past it. `shown` gives the request as messages show
   * it (the URL redacted), asked for only when a message is made.
   */
  send(req: HttpRequest, stop: RequestStop | undefined, shown: () => string, sendOnce: () => Promise<HttpResponse>): Promise<HttpResponse> {
    // the common case, on every request's way: nothing to wait for before sending, and an answer
    // that does not throttle goes straight back
    if (this.closedUntil.size === 0 && this.policy.ratePerSecond === undefined) {
      return sendOnce().then((res) => (res.status === 429 || res.status === 503 ? this.waitedOut(req, stop, shown, sendOnce, res) : res));
    }
    return this.waitedOut(req, stop, shown, sendOnce, undefined);
  }

  /** The send loop: waits for the origin and the pace, sends (or takes `first`, already answered), waits out throttling. */
  private async waitedOut(req: HttpRequest, stop: RequestStop | undefined, shown: () => string, sendOnce: () => Promise<HttpResponse>, first: HttpResponse | undefined): Promise<HttpResponse> {
    const origin = originOf(req.url);
    let waited = 0;
    let answered = first;
    for (let attempt = 0; ; attempt += 1) {
      if (answered === undefined) {
        waited += await this.untilOpen(origin, waited, shown, stop);
        await this.pace(stop);
      }
      const res = answered ?? (await sendOnce());
      answered = undefined;
      const now = this.timers.now();
      const wait = throttleWait(res, attempt, now);
      if (wait === undefined) return res;
      const said = saidOf(res);
      if (waited + wait > this.policy.maxWaitMs) {
        this.closedUntil.set(origin, { until: now + wait, said });
        throw this.throttled(shown(), said, wait, waited);
      }
      await this.timers.sleep(wait, stop);
      waited += wait;
    }
  }

  /** Waits while the origin asked to be left alone, if that fits the budget; the ms waited. */
  private async untilOpen(origin: string, waited: number, shown: () => string, stop: RequestStop | undefined): Promise<number> {
    const closed = this.closedUntil.get(origin);
    if (!closed) return 0;
    const left = closed.until - this.timers.now();
    if (left <= 0) {
      this.closedUntil.delete(origin);
      return 0;
    }
    if (waited + left > this.policy.maxWaitMs) throw this.throttled(shown(), closed.said, left, waited, true);
    await this.timers.sleep(left, stop);
    return left;
  }

  /** Waits for this request's slot at the run's pace. */
  private async pace(stop: RequestStop | undefined): Promise<void> {
    const rate = this.policy.ratePerSecond;
    if (rate === undefined) return;
    const now = this.timers.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / rate;
    if (slot > now) await this.timers.sleep(slot - now, stop);
  }

  private throttled(shown: string, said: string, wait: number, waited: number, unsent = false): SpecgateError {
    const budget = `--max-wait ${formatSeconds(this.policy.maxWaitMs)}`;
    const what = unsent
      ? `${shown} was not sent: the target had throttled the run (${said}) and asks for ${formatSeconds(wait)} more`
      : `the target throttled ${shown} (${said})${waited > 0 ? ` after ${formatSeconds(waited)} of waiting` : ''}, asking for ${formatSeconds(wait)} more`;
    return new SpecgateError(
      'SG_TARGET_THROTTLED',
      `throttled: ${what}, past ${budget}; a rate limit is not judged, so the case is untested. Raise or lift the target's rate limit for the test client, pace the run with --rate <requests/s>, or raise --max-wait`,
      { said, waitMs: wait },
    );
  }
}

function saidOf(res: Pick<HttpResponse, 'status' | 'headers'>): string {
  const ra = res.headers['retry-after'];
  return typeof ra === 'string' ? `${res.status} with Retry-After: ${ra.trim()}` : `${res.status} without Retry-After`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** `setTimeout` as a promise that ends early, with the stop's reason, when the request is stopped. */
function sleepStopping(ms: number, stop: RequestStop | undefined): Promise<void> {
  if (stop !== undefined && isStopped(stop)) return Promise.reject(stop.reason);
  return new Promise<void>((resolve, reject) => {
    const off = stop === undefined ? undefined : onceStopped(stop, (reason) => {
      clearTimeout(timer);
      reject(reason);
    });
    const timer = setTimeout(() => {
      off?.();
      resolve();
    }, ms);
  });
}
