/**
 * Time as the engine and the reference implementations see it. Reference targets run on a
 * VirtualClock so that 900-second expiries are checked in milliseconds; external targets get
 * a RealClock unless their profile has a clock-control hook.
 */
export interface Clock {
  /** Milliseconds since the epoch, as the target should see it. */
  now(): number;
}

/** A clock whose time the harness can move forward. */
export interface ClockControl extends Clock {
  readonly kind: 'virtual' | 'hook' | 'real';
  /** Lets `ms` milliseconds pass for the target. Real clocks actually wait. */
  advance(ms: number, signal?: AbortSignal): Promise<void>;
}

export class VirtualClock implements ClockControl {
  readonly kind = 'virtual' as const;
  /**
   * The time, in memory another thread can read: a reference running in a worker thread reads
   * the same cell (VirtualClock.over), so time the engine lets pass holds there at once, before
   * the next request is sent (the request's own write orders it after this one).
   */
  readonly shared: SharedArrayBuffer;
  private readonly cell: Float64Array;

  constructor(start = Date.UTC(2026, 0, 1), shared?: SharedArrayBuffer) {
    this.shared = shared ?? new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT);
    this.cell = new Float64Array(this.shared, 0, 1);
    if (!shared) this.cell[0] = start;
  }

  /** The clock whose time lives in `shared` (another thread's VirtualClock#shared). */
  static over(shared: SharedArrayBuffer): VirtualClock {
    return new VirtualClock(0, shared);
  }

  now(): number {
    return this.cell[0] as number;
  }

  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`cannot move a clock backwards (${ms} ms)`);
    this.cell[0] = (this.cell[0] as number) + ms;
  }
}

export class RealClock implements ClockControl {
  readonly kind = 'real' as const;

  now(): number {
    return Date.now();
  }

  advance(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/**
 * Wall-clock time plus an offset that can only move forward: the clock of a reference server
 * running as its own process (`specgate serve`), whose clock hook moves it, so an external run
 * need not wait a real hour for a token to expire.
 */
export class OffsetClock implements ClockControl {
  readonly kind = 'hook' as const;
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`cannot move a clock backwards (${ms} ms)`);
    this.offset += ms;
  }
}
