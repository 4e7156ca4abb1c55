import type { StopSource } from '../../targets/stop-source.js';

type StopListener = (reason: unknown) => void;

/**
 * When a case must stop: its timeout, the run's interruption, or its end (which stops whatever
 * the case left running). It is the case's AbortSignal, made only when something asks for it: a
 * signal per case costs more to make, listen on and abort (with the garbage it leaves) than a
 * plain request of the engine's own HTTP client, which listens here directly instead. A signal
 * asked for after the case stopped is made already aborted, with the same reason, so whoever
 * holds it sees exactly what an eagerly made signal would show.
 */
export class CaseStop implements StopSource {
  private controller: AbortController | undefined;
  private listeners: StopListener[] | undefined;
  private done = false;
  private why: unknown = undefined;

  /** The case's AbortSignal (for checks, processes, clocks, databases and other HTTP clients). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort(this.why);
    }
    return this.controller.signal;
  }

  /** The case was told to stop (`signal.aborted`, without making the signal). */
  get stopped(): boolean {
    return this.done;
  }

  /** Why it stopped (`signal.reason`). */
  get reason(): unknown {
    return this.why;
  }

  /** Stops the case once: aborts its signal, if made, then tells the listeners. */
  stop(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.why = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener(reason);
  }

  /** Calls `listener` once, when the case stops (never, once it has). */
  onStop(listener: StopListener): void {
    if (this.done) return;
    (this.listeners ??= []).push(listener);
  }

  offStop(listener: StopListener): void {
    const listeners = this.listeners;
    if (!listeners) return;
    const i = listeners.indexOf(listener);
    if (i >= 0) listeners.splice(i, 1);
  }
}
