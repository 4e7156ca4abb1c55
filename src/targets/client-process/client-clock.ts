import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ClockControl } from '../../engine/clock.js';

/**
 * The launch variable naming the clock hook of a client-process run (an optional extension of
 * every client launch contract): an application that takes its waits and its "now" from it runs
 * on the played server's time, so a rule about seconds between requests is judged in
 * milliseconds; one that ignores it waits in real time and is judged the same way.
 *
 *   GET  <url>/now          -> 200 {"now": <ms since the epoch>}
 *   POST <url>/sleep?ms=N   -> 200 {"now": ...} once N ms have passed on that clock
 */
export const CLIENT_CLOCK_VAR = 'SPECGATE_CLOCK_URL';

/** The longest single wait the hook takes (a day): a bigger one is a client bug, answered 400. */
export const MAX_HOOK_SLEEP_MS = 86_400_000;

/**
 * The clock of a client-process run: real time plus every wait the application slept through
 * the hook. A sleep moves the clock to the time the application asked to wake at, at once, so
 * the played server sees its next request exactly that much later; real time keeps running
 * under it, so an application that waits for real is seen as it always was.
 *
 * Time does not jump while the harness is still acting on what the application did last (the
 * person entering a user code, say): `hold` registers such work, and a sleep waits for it, as a
 * person acts within the interval, before the application's next request.
 */
export class ClientClock implements ClockControl {
  readonly kind = 'hook' as const;
  private offset = 0;
  private readonly holds = new Set<Promise<unknown>>();
  /** Sleeps asked for in the same turn of the event loop, woken together in wake order. */
  private pending: { wake: number; resolve: (now: number) => void }[] = [];

  now(): number {
    return Date.now() + this.offset;
  }

  /** Lets `ms` pass for the played server and for a client on the hook (not for one on its own clock). */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`cannot move a clock by ${ms} ms (only forward, by a finite amount)`);
    this.offset += ms;
  }

  /** Registers work a sleeping application must not overtake; returns it. */
  hold<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.holds.add(settled);
    void settled.then(() => this.holds.delete(settled));
    return work;
  }

  /**
   * The application sleeps `ms` from now: returns the time it wakes at, after held work settled.
   * Sleeps asked for together (one turn of the event loop) count from the same moment, so two
   * overlapping waits end at the later wake time, not at their sum; a sleep asked for after
   * another has woken counts from then (overlapping waits end no earlier than asked).
   */
  sleep(ms: number): Promise<number> {
    const wake = this.now() + ms;
    return new Promise<number>((resolve) => {
      this.pending.push({ wake, resolve });
      if (this.pending.length === 1) setImmediate(() => void this.wakeSleepers());
    });
  }

  private async wakeSleepers(): Promise<void> {
    while (this.holds.size > 0) await Promise.all([...this.holds]);
    const due = this.pending.sort((a, b) => a.wake - b.wake);
    this.pending = [];
    for (const s of due) {
      this.offset = Math.max(this.offset, s.wake - Date.now());
      s.resolve(this.now());
    }
  }
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The hook's HTTP side (see {@link CLIENT_CLOCK_VAR}). */
export function clientClockHandler(clock: ClientClock): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    // the body, if any, is not read: drain it so the connection stays usable
    req.resume();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/now' && req.method === 'GET') return answer(res, 200, { now: clock.now() });
    if (url.pathname === '/sleep' && req.method === 'POST') {
      const raw = url.searchParams.get('ms');
      const ms = raw === null || raw.trim() === '' ? Number.NaN : Number(raw);
      if (!Number.isFinite(ms) || ms < 0 || ms > MAX_HOOK_SLEEP_MS)
        return answer(res, 400, { error: `ms must be a number of milliseconds from 0 to ${MAX_HOOK_SLEEP_MS}, got ${raw === null ? 'none' : JSON.stringify(raw)}` });
      void clock.sleep(ms).then((now) => answer(res, 200, { now }));
      return;
    }
    answer(res, 404, { error: 'the clock hook answers GET /now and POST /sleep?ms=N' });
  };
}
