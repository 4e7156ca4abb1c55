import { SpecgateError } from '../../../src/errors.js';

/**
 * A bounded set of reusable stages, each serving one user at a time: what lets the integration
 * cases of a run share a few launched integrations instead of launching one per case. A stage
 * is started when a user comes and none is free (up to `size` of them), handed to the users in
 * turn, and stopped once none has been used for `idleMs`, once it says it cannot be reused (its
 * process ended), or by {@link StagePool.close}.
 */
export interface StagePoolOptions<S> {
  /** The most stages up at once: the users in parallel. */
  size: number;
  /** How long a stage no one uses stays up for the next user (ms). */
  idleMs: number;
  start(): Promise<S>;
  /** False for a stage that cannot serve another user (its process ended): it is stopped instead. */
  reusable(stage: S): boolean;
  stop(stage: S): Promise<void>;
}

/** What a waiting user is given: a stage, leave to start one, or nothing (it was stopped). */
type Given<S> = { stage: S } | { start: true } | { aborted: true };

interface Waiter<S> {
  resolve(given: Given<S>): void;
}

export class StagePool<S> {
  private readonly free: S[] = [];
  private readonly waiters: Waiter<S>[] = [];
  private up = 0;
  private idle: NodeJS.Timeout | undefined;
  private stopping: Promise<void>[] = [];

  constructor(private readonly opts: StagePoolOptions<S>) {}

  /** Stages up now (free or in use). */
  get size(): number {
    return this.up;
  }

  /**
   * Runs `use` with a stage of its own for the time of the call: a free one, a new one while
   * fewer than `size` are up, else the next one another user gives back. Waiting ends with an
   * error when `signal` aborts.
   */
  async use<T>(signal: AbortSignal, use: (stage: S) => Promise<T>): Promise<T> {
    const stage = await this.acquire(signal);
    try {
      return await use(stage);
    } finally {
      this.release(stage);
    }
  }

  /** Stops every free stage now; stages in use are stopped when given back. Later users start new ones. */
  async close(): Promise<void> {
    this.clearIdle();
    for (const s of this.free.splice(0)) this.retire(s);
    await Promise.allSettled(this.stopping);
  }

  private async acquire(signal: AbortSignal): Promise<S> {
    if (signal.aborted) throw stopped();
    this.clearIdle();
    const free = this.free.pop();
    if (free !== undefined) return free;
    if (this.up < this.opts.size) return this.startOne();
    const given = await new Promise<Given<S>>((resolve) => {
      const waiter: Waiter<S> = { resolve };
      const onAbort = (): void => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve({ aborted: true });
      };
      waiter.resolve = (g) => {
        signal.removeEventListener('abort', onAbort);
        resolve(g);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
    if ('stage' in given) return given.stage;
    if ('aborted' in given) throw stopped();
    // woken to start a stage of its own (one was retired); stopped meanwhile, the next waiter is
    if (signal.aborted) {
      this.wakeToStart();
      throw stopped();
    }
    return this.startOne();
  }

  private async startOne(): Promise<S> {
    this.up++;
    try {
      return await this.opts.start();
    } catch (e) {
      this.up--;
      this.wakeToStart();
      throw e;
    }
  }

  private release(stage: S): void {
    if (!this.opts.reusable(stage)) {
      this.retire(stage);
      this.wakeToStart();
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) return waiter.resolve({ stage });
    this.free.push(stage);
    if (this.free.length === this.up) this.armIdle();
  }

  /** A slot came free without a stage: the next waiter starts one. */
  private wakeToStart(): void {
    this.waiters.shift()?.resolve({ start: true });
  }

  private retire(stage: S): void {
    this.up--;
    const done = this.opts.stop(stage).catch(() => undefined);
    this.stopping.push(done);
    void done.then(() => {
      this.stopping = this.stopping.filter((p) => p !== done);
    });
  }

  private armIdle(): void {
    this.clearIdle();
    this.idle = setTimeout(() => {
      this.idle = undefined;
      for (const s of this.free.splice(0)) this.retire(s);
    }, this.opts.idleMs);
    // what a stage holds open (servers, a process) keeps the process alive until it is stopped
    this.idle.unref();
  }

  private clearIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
  }
}

function stopped(): SpecgateError {
  return new SpecgateError('SG_CASE_TIMEOUT', 'the case was stopped while it waited for a launched affiliate integration');
}
