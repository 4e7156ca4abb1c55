import { CUT_MARK } from '../text-cut.js';

/** How a client application ended. */
export interface ClientExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Characters of each output stream kept: a client that floods its output cannot exhaust memory. */
export const OUTPUT_CAP = 1024 * 1024;

/**
 * What a started client has said and how it ended, and the waits on it: kept where the client
 * runs (client-spawn.ts) and, for a client started in the exec worker thread, mirrored from the
 * news that thread sends (client-process.ts), so both wait by the same rules.
 */
export class ClientOutput {
  private out = '';
  private err = '';
  private ended: ClientExit | undefined;
  /**
   * Whether the output is final: the pipes closed, or a while has passed since the exit (a
   * descendant may still hold them open), or the client could not start.
   */
  private done = false;
  /** Why the client is not there to wait on (its start failed, the thread running it ended): waits fail with it. */
  private failure: Error | undefined;
  private readonly watchers = new Set<() => void>();

  constructor(private readonly signal: AbortSignal) {}

  stdout(): string {
    return this.out;
  }

  stderr(): string {
    return this.err;
  }

  exit(): ClientExit | undefined {
    return this.ended;
  }

  final(): boolean {
    return this.done;
  }

  /** Appends `text` to a stream, up to {@link OUTPUT_CAP}; returns what was kept of it ('' when nothing). */
  append(stream: 'stdout' | 'stderr', text: string): string {
    const have = stream === 'stdout' ? this.out : this.err;
    const now = keep(have, text);
    if (now.length === have.length) return '';
    if (stream === 'stdout') {
      this.out = now;
      this.notify();
    } else this.err = now;
    return now.slice(have.length);
  }

  /** Notes how it ended; a later exit (the 'exit' event after a spawn error) does not replace the first. */
  setExit(exit: ClientExit, replace = true): void {
    if (replace || this.ended === undefined) this.ended = exit;
  }

  /** The output is final: every wait on it ends. */
  settle(): void {
    this.done = true;
    this.notify();
  }

  /** The client is not there to wait on: every wait on it, now or later, fails with `error`. */
  fail(error: Error): void {
    this.failure ??= error;
    this.settle();
  }

  /** The error the waits fail with, if any. */
  failed(): Error | undefined {
    return this.failure;
  }

  /** The client's exit once its output is final (see {@link waitFor}). */
  waitForExit(timeoutMs: number): Promise<ClientExit | undefined> {
    return this.waitFor(() => (this.final() ? this.exit() : undefined), timeoutMs);
  }

  /**
   * Resolves with what `find` returns once it returns a value, the output is final, the signal
   * aborts, or time runs out; rejects once the client has failed (see {@link fail}).
   */
  waitFor<T>(find: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      const done = (v: T | undefined): void => {
        this.watchers.delete(check);
        clearTimeout(timer);
        if (this.failure) reject(this.failure);
        else resolve(v);
      };
      const check = (): void => {
        if (this.failure) return done(undefined);
        const v = find();
        if (v !== undefined || this.done || this.signal.aborted) done(v);
      };
      const timer = setTimeout(() => done(find()), timeoutMs);
      this.watchers.add(check);
      check();
    });
  }

  private notify(): void {
    for (const w of [...this.watchers]) w();
  }
}

/**
 * `have` with `more` appended, up to {@link OUTPUT_CAP}. A cut output ends with the cut mark
 * (within the cap): the secrets are not known here, and the Redactor masks a piece of one found
 * right before the mark.
 */
function keep(have: string, more: string): string {
  if (have.length >= OUTPUT_CAP) return have;
  const all = have + more;
  return all.length <= OUTPUT_CAP ? all : `${all.slice(0, OUTPUT_CAP - 1)}${CUT_MARK}`;
}
