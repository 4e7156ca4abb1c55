/**
 * The run-wide bound on cases in flight (`--concurrency`), shared by the suites that run side by
 * side. A freed slot goes to the earliest suite of the run that waits for one (lowest rank), so
 * the suite whose output is shown first finishes first, and a later suite only fills what the
 * earlier ones leave idle (a serial tail of time-bound and exclusive cases, a target starting).
 */
export class CaseSlots {
  private busy = 0;
  /** Who waits, by rank, each in the order it asked. */
  private readonly waiting: { rank: number; grant: () => void; skip: () => void }[] = [];

  /**
   * @param size cases in flight at once
   * @param signal the run's: once aborted, whoever waits goes on at once without a slot (an
   *   interrupted run's cases are only marked skipped, and they wait for nothing)
   */
  constructor(
    readonly size: number,
    private readonly signal?: AbortSignal,
  ) {
    // one listener for every waiter, however many suites and cases wait
    signal?.addEventListener('abort', () => this.waiting.splice(0).forEach((w) => w.skip()), { once: true });
  }

  /**
   * The function that frees a slot held for the caller now, when one is free (or the run is
   * interrupted: then nothing is held); undefined when the caller must wait for one
   * ({@link acquire}). A free slot means nobody waits: a freed slot goes straight to the first
   * in line. Spares a case that finds a slot free a promise and a turn of the microtask queue.
   */
  tryAcquire(): (() => void) | undefined {
    if (this.signal?.aborted) return noop;
    if (this.busy < this.size) {
      this.busy++;
      return this.releaser();
    }
    return undefined;
  }

  /** Resolves once a slot is held for the caller, with the function that frees it (once). */
  acquire(rank: number): Promise<() => void> {
    const held = this.tryAcquire();
    if (held) return Promise.resolve(held);
    return new Promise((resolve) => {
      const entry = { rank, grant: () => resolve(this.releaser()), skip: () => resolve(noop) };
      // after the last waiter of the same or an earlier rank
      let at = this.waiting.findIndex((w) => w.rank > rank);
      if (at < 0) at = this.waiting.length;
      this.waiting.splice(at, 0, entry);
    });
  }

  /** Cases in flight now. */
  get inFlight(): number {
    return this.busy;
  }

  private releaser(): () => void {
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      // a freed slot is handed straight to the first in line, so no newcomer takes it in between
      const next = this.waiting.shift();
      if (next) next.grant();
      else this.busy--;
    };
  }
}

function noop(): void {}
