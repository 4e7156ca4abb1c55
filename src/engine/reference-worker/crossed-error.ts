import { SpecgateError, type SpecgateErrorCode } from '../../errors.js';
import { DatabaseAnswerError } from '../../targets/database/database-errors.js';
import { fromWire, toWire } from '../../targets/thread-error.js';
import type { CrossedError } from './messages.js';

/** An error as data, to post to another thread (thread-error.ts); a document database's refusal keeps its observation. */
export function crossError(e: unknown): CrossedError {
  return e instanceof DatabaseAnswerError ? { ...toWire(e), refusal: e.toObservation() } : toWire(e);
}

/**
 * What a call into the worker (an agent's action, a document command) threw, as the run's
 * thread would have seen it from a reference in its own thread: a document database's refusal
 * as the DatabaseAnswerError the engine expects of a command, anything else as thread-error.ts
 * rebuilds it (a SpecgateError with its code and detail, another error with its name, message
 * and Node error code), which the engine then takes as it takes any error.
 */
export function uncrossCallError(e: CrossedError): Error {
  if (!e.refusal) return fromWire(e);
  const { code, number, message } = e.refusal;
  return new DatabaseAnswerError(message, code, undefined, { what: 'command', ...(number !== undefined ? { number } : {}) });
}

/**
 * A reference's failure to start or stop, as the run records it: a SpecgateError with its own
 * code, or with `fallback` (what the failure means to the run) for anything else thrown.
 */
export function uncrossError(e: CrossedError, fallback: SpecgateErrorCode, prefix = ''): SpecgateError {
  if (e.refusal) return uncrossCallError(e) as DatabaseAnswerError;
  return new SpecgateError(e.code ?? fallback, `${prefix}${e.message}`, e.detail);
}
