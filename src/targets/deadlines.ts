/**
 * What a {@link Deadlines} keeps: `expire` is called once when `durationMs` has passed since it
 * was added, unless it is removed first. The links belong to the queue.
 */
export interface DeadlineEntry {
  /** When it expires, in `performance.now()` time (set by {@link Deadlines.add}). */
  at: number;
  durationMs: number;
  prev: DeadlineEntry | undefined;
  next: DeadlineEntry | undefined;
  expire(): void;
}

/** One list of the entries of one duration: added in time order, so it is in deadline order. */
interface Lane {
  head: DeadlineEntry | undefined;
  tail: DeadlineEntry | undefined;
}

/**
 * Deadlines on one timer (the cases of one suite, the requests of one HTTP client): a timer each
 * costs its making, its place in Node's timer lists and its clearing, for work that almost
 * always ends long before its deadline. Entries of one duration are kept in a list in the order they were added (which
 * is their deadline order), so adding and removing one costs a few assignments; the timer is set
 * for the earliest deadline and, when it fires, expires every entry whose time has come and is
 * set again for the next. With no entry left the timer is cleared, so a queue never keeps the
 * process alive by itself.
 */
export class Deadlines {
  private readonly lanes = new Map<number, Lane>();
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The deadline the timer is set for. */
  private armedAt = Infinity;
  private readonly fire = (): void => this.expireDue();

  /** Starts `entry`'s deadline at `now` (`performance.now()`, when the caller has not just read it). */
  add(entry: DeadlineEntry, now = performance.now()): void {
    const at = now + entry.durationMs;
    entry.at = at;
    entry.next = undefined;
    let lane = this.lanes.get(entry.durationMs);
    if (!lane) {
      lane = { head: undefined, tail: undefined };
      this.lanes.set(entry.durationMs, lane);
    }
    entry.prev = lane.tail;
    if (lane.tail) lane.tail.next = entry;
    else lane.head = entry;
    lane.tail = entry;
    this.size++;
    if (at < this.armedAt) this.arm(at);
  }

  /** Forgets `entry` (it ended before its deadline); nothing when it is not queued. */
  remove(entry: DeadlineEntry): void {
    const lane = this.lanes.get(entry.durationMs);
    if (!lane || (entry.prev === undefined && lane.head !== entry)) return;
    this.unlink(lane, entry);
    if (this.size === 0) this.disarm();
  }

  private unlink(lane: Lane, entry: DeadlineEntry): void {
    if (entry.prev) entry.prev.next = entry.next;
    else lane.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else lane.tail = entry.prev;
    entry.prev = undefined;
    entry.next = undefined;
    this.size--;
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.armedAt = at;
    // Node's timers count whole milliseconds from the loop's clock: a timer may fire a fraction early, which expireDue sees and waits out
    this.timer = setTimeout(this.fire, Math.max(1, Math.ceil(at - performance.now())));
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Infinity;
  }

  private expireDue(): void {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = performance.now();
    const due: DeadlineEntry[] = [];
    let next = Infinity;
    for (const lane of this.lanes.values()) {
      while (lane.head && lane.head.at <= now) {
        const entry = lane.head;
        this.unlink(lane, entry);
        due.push(entry);
      }
      if (lane.head && lane.head.at < next) next = lane.head.at;
    }
    // set again before expiring: an expiry may add or remove entries, which then see the timer as it is
    if (next !== Infinity) this.arm(next);
    for (const entry of due) entry.expire();
  }
}
