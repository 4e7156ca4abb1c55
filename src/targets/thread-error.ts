import { SpecgateError, type SpecgateErrorCode } from '../errors.js';

/**
 * How an error crosses from one thread to another (the exec worker, a reference's worker): a
 * thread's messages are structured clones, which keep an Error's message but not its class,
 * `code` or `detail`, so errors travel as {@link WireError} and are rebuilt on arrival.
 */

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
