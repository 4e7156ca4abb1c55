import type { ClientExit } from './client-process/client-output.js';
import type { WireError } from './thread-error.js';
import type { ExecRequest, ExecResult } from './types.js';

/**
 * The messages between the thread that asks for exec invocations and the worker thread that runs
 * them (exec-thread.ts, exec-worker.ts); errors cross as thread-error.ts makes them.
 */

/**
 * The version of these messages: the asking side hands the worker client launches only when the
 * worker's `ready` names this one (a worker script of another build answers `run` alone).
 */
export const EXEC_PROTOCOL = 2;

/** A client application to start in the worker (client-process.ts): its argument vector, whole environment and name. */
export interface WireLaunch {
  argv: string[];
  env: Record<string, string>;
  what: string;
}

/** An invocation as it travels: everything but the abort signal (the asking side posts an abort instead). */
export type WireRequest = Omit<ExecRequest, 'signal'>;

/** Asking side -> worker. `startedAt` is the call's time (`performance.timeOrigin + performance.now()`), which both threads read alike. */
export type ToWorker =
  | { type: 'run'; id: number; req: WireRequest; startedAt: number }
  | { type: 'abort'; id: number }
  /** Start client `id` (client-spawn.ts); its news comes back as `client-*` messages. */
  | { type: 'launch'; id: number; launch: WireLaunch }
  /** Stop client `id` as its `stop()` does; answered `client-stopped`. */
  | { type: 'client-stop'; id: number }
  /** The case of client `id` was aborted: its whole family goes at once. */
  | { type: 'client-abort'; id: number }
  /** End every family now (process-family.ts), then count the sweep in {@link ExecWorkerData}: the asking side waits for it, exiting. */
  | { type: 'sweep' }
  /** End the thread (and, as it exits, every family). */
  | { type: 'close' };

/** What the worker is started with. */
export interface ExecWorkerData {
  /** One Int32: the sweeps done, which the worker counts up (and notifies) at the end of each. */
  sweeps: SharedArrayBuffer;
}

/** Worker -> asking side. */
export type FromWorker =
  /** Loaded; the tag owner of what it starts (process-sweep.ts), for the sweep should it die. */
  | { type: 'ready'; owner: string; protocol?: number }
  /** Invocation `id` started its child. */
  | { type: 'started'; id: number; pid: number }
  | { type: 'done'; id: number; result: ExecResult }
  /** `aborted`: it ended because the asking side aborted it (whose reason the asking side keeps). */
  | { type: 'failed'; id: number; error: WireError; aborted: boolean }
  /** Client `id` started as process `pid`. */
  | { type: 'client-started'; id: number; pid: number | undefined }
  /** Client `id` could not be started at all (the spawn threw). */
  | { type: 'client-failed'; id: number; error: WireError }
  /** Client `id`'s stream kept `text` more. */
  | { type: 'client-output'; id: number; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'client-exit'; id: number; exit: ClientExit; replace: boolean }
  /** Client `id`'s output is final. */
  | { type: 'client-final'; id: number }
  /** Client `id` was stopped (answering `client-stop`). */
  | { type: 'client-stopped'; id: number; exit: ClientExit };

/**
 * The buffer to transfer with `bytes` rather than copy, when `bytes` is all of it (a buffer
 * shared with other views, such as Node's pool of small Buffers, is copied).
 */
export function transferable(bytes: Uint8Array): ArrayBuffer[] {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength && bytes.byteLength > 0 ? [buffer] : [];
}
