import { SpecgateError, type SpecgateErrorCode } from '../../errors.js';
import { DatabaseAnswerError } from '../../targets/database/database-errors.js';
import type { CrossedError } from './messages.js';

/** An error as data, to post to another thread. */
export function crossError(e: unknown): CrossedError {
  if (e instanceof DatabaseAnswerError) return { message: e.message, code: e.code, refusal: e.toObservation() };
  if (e instanceof SpecgateError) return { message: e.message, code: e.code, ...(e.detail ? { detail: e.detail } : {}) };
  return { message: e instanceof Error ? e.message : String(e) };
}

/**
 * The error again on this side: a document database's refusal as the DatabaseAnswerError the
 * engine expects of a command, a SpecgateError with its code, or one of `fallback` (what the
 * failure means to the run) for anything else thrown in the worker.
 */
export function uncrossError(e: CrossedError, fallback: SpecgateErrorCode, prefix = ''): SpecgateError {
  if (e.refusal) {
    const { code, number, message } = e.refusal;
    return new DatabaseAnswerError(message, code, undefined, { what: 'command', ...(number !== undefined ? { number } : {}) });
  }
  const code = (e.code ?? fallback) as SpecgateErrorCode;
  return new SpecgateError(code, `${prefix}${e.message}`, e.detail);
}
