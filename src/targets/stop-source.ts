/**
 * What may stop a request early besides its AbortSignal: the case it belongs to. The engine's
 * cases make their AbortSignal only when something asks for it (it is costly next to a request
 * on a pooled connection), and hand the clients of http-client.ts their stop directly (`sendFor`).
 */
export interface StopSource {
  readonly stopped: boolean;
  readonly reason: unknown;
  /** Calls `listener` once when it stops; never once it has stopped. */
  onStop(listener: (reason: unknown) => void): void;
  offStop(listener: (reason: unknown) => void): void;
}

/** A request's stop: its AbortSignal, or its case's stop. */
export type RequestStop = AbortSignal | StopSource;

/** Whether `stop` has fired. */
export function isStopped(stop: RequestStop): boolean {
  return stop instanceof AbortSignal ? stop.aborted : stop.stopped;
}

/** Calls `listener` once when `stop` fires (never if it has fired already); returns how to stop listening. */
export function onceStopped(stop: RequestStop, listener: (reason: unknown) => void): () => void {
  if (stop instanceof AbortSignal) {
    const onAbort = (): void => listener(stop.reason);
    stop.addEventListener('abort', onAbort, { once: true });
    return () => stop.removeEventListener('abort', onAbort);
  }
  stop.onStop(listener);
  return () => stop.offStop(listener);
}
