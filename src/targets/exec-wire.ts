import { SpecgateError, type SpecgateErrorCode } from '../errors.js';
import type { ExecRequest, ExecResult } from './types.js';

/**
 * The messages between the thread that asks for exec invocations and the worker thread that runs
 * them (exec-thread.ts, exec-worker.ts), and how an error crosses between them: a thread's
 * messages are structured clones, which keep an Error's message but not its class, `code` or
 * `detail`, so errors travel as {@link WireError} and are rebuilt on arrival.
 */

/** An invocation as it travels: everything but the abort signal (the asking side posts an abort instead). */
export type WireRequest = Omit<ExecRequest, 'signal'>;

/** Asking side -> worker. `startedAt` is the call's time (`performance.timeOrigin + performance.now()`), which both threads read alike. */
export type ToWorker =
  | { type: 'run'; id: number; req: WireRequest; startedAt: number }
  | { type: 'abort'; id: number }
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
  | { type: 'ready'; owner: string }
  /** Invocation `id` started its child. */
  | { type: 'started'; id: number; pid: number }
  | { type: 'done'; id: number; result: ExecResult }
  /** `aborted`: it ended because the asking side aborted it (whose reason the asking side keeps). */
  | { type: 'failed'; id: number; error: WireError; aborted: boolean };

/** An error (or any thrown value) as a structured clone keeps it. */
export interface WireError {
  /** Set for a SpecgateError: its code. */
  code?: SpecgateErrorCode;
  name: string;
  message: string;
  stack?: string;
  detail?: Record<string, unknown>;
  /** A system error's own fields (`code`, `errno`, `syscall`, `path`): what the messages were made of. */
  fields?: Record<string, string | number>;
  cause?: WireError;
}

const SYSTEM_FIELDS = ['code', 'errno', 'syscall', 'path'] as const;

/** `e` as it can cross to another thread. */
export function toWire(e: unknown): WireError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const wire: WireError = { name: e.name, message: e.message };
  if (e.stack !== undefined) wire.stack = e.stack;
  if (e instanceof SpecgateError) {
    wire.code = e.code;
    if (e.detail !== undefined) wire.detail = e.detail;
  } else {
    const fields: Record<string, string | number> = {};
    for (const f of SYSTEM_FIELDS) {
      const v = (e as unknown as Record<string, unknown>)[f];
      if (typeof v === 'string' || typeof v === 'number') fields[f] = v;
    }
    if (Object.keys(fields).length) wire.fields = fields;
  }
  if (e.cause !== undefined) wire.cause = toWire(e.cause);
  return wire;
}

/** The error `wire` was made from: a SpecgateError with its code, message and detail, or an Error with its fields. */
export function fromWire(wire: WireError): Error {
  const options = wire.cause ? { cause: fromWire(wire.cause) } : undefined;
  const e = wire.code !== undefined
    ? new SpecgateError(wire.code, wire.message, wire.detail, options)
    : Object.assign(new Error(wire.message, options), wire.fields ?? {});
  if (wire.code === undefined) e.name = wire.name;
  if (wire.stack !== undefined) e.stack = wire.stack;
  return e;
}

/**
 * The buffer to transfer with `bytes` rather than copy, when `bytes` is all of it (a buffer
 * shared with other views, such as Node's pool of small Buffers, is copied).
 */
export function transferable(bytes: Uint8Array): ArrayBuffer[] {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength && bytes.byteLength > 0 ? [buffer] : [];
}
