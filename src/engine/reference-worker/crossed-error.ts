import { SpecgateError, type SpecgateErrorCode } from '../../errors.js';
import { DatabaseAnswerError } from '../../targets/database/database-errors.js';
import type { CrossedError } from './messages.js';

/** An error as data, to post to another thread. */
export function crossError(e: unknown): CrossedError {
  if (e instanceof DatabaseAnswerError) return { message: e.message, code: e.code, refusal: e.toObservation() };
  if (e instanceof SpecgateError) return { message: e.message, code: e.code, ...(e.detail ? { detail: e.detail } : {}) };
  const nodeCode = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return { message: e instanceof Error ? e.message : String(e), plain: { name: e instanceof Error ? e.name : 'Error', ...(typeof nodeCode === 'string' ? { nodeCode } : {}) } };
}

/**
 * What a call into the worker (an agent's action, a document command) threw, as the run's
 * thread would have seen it from a reference in its own thread: a SpecgateError or a database
 * refusal as {@link uncrossError} makes them, anything else as a plain Error of the same name,
 * message and Node error code, which the engine then takes as it takes any unexpected error.
 */
export function uncrossCallError(e: CrossedError): Error {
  if (!e.plain || e.refusal) return uncrossError(e, 'SG_INTERNAL');
  const out = new Error(e.message);
  out.name = e.plain.name;
  if (e.plain.nodeCode !== undefined) (out as Error & { code?: string }).code = e.plain.nodeCode;
  return out;
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
