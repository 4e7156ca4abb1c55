import { SpecgateError } from '../../errors.js';

/**
 * The database refused a statement (syntax error, missing table, constraint, unsupported
 * collation...). This is the target's answer, not a harness fault: a `query:` step records it
 * as the `error` its expectation matches. Should it escape a step, it reports as a protocol fault.
 */
export class DatabaseAnswerError extends SpecgateError {
  /** The database's own error code (PostgreSQL: the five-character SQLSTATE). */
  readonly sqlState: string | undefined;
  /** The database's message, without the harness's advice around it. */
  readonly dbMessage: string;

  constructor(dbMessage: string, sqlState: string | undefined, detail?: string) {
    super('SG_TARGET_PROTOCOL', `the database rejected the statement${sqlState ? ` (${sqlState})` : ''}: ${dbMessage}; expect it with \`expect: { error: ... }\` if the case means it to fail`, {
      ...(sqlState ? { sqlState } : {}),
      ...(detail ? { detail } : {}),
    });
    this.name = 'DatabaseAnswerError';
    this.sqlState = sqlState;
    this.dbMessage = dbMessage;
  }

  /** The shape `expect.error` is matched against. */
  toObservation(): { code: string | undefined; message: string } {
    return { code: this.sqlState, message: this.dbMessage };
  }
}

/** Server answers that mean the session is unusable (connection exceptions, server shutting down). */
const SESSION_LOST = /^(08|57P)/;

/**
 * Sorts a driver error into: cannot reach or log in (SG_TARGET_UNREACHABLE, saying what to fix),
 * or the database's answer to the statement ({@link DatabaseAnswerError}). Only an error the
 * server sent (it carries a severity) can be an answer; socket errors, a closed connection and a
 * refused login (wrong password, unknown database) while connecting mean the target is not there.
 */
export function classifyDatabaseError(e: unknown, where: string, connecting: boolean): SpecgateError {
  if (e instanceof SpecgateError) return e;
  const err = (e ?? {}) as { code?: unknown; message?: unknown; detail?: unknown; severity?: unknown };
  const code = typeof err.code === 'string' ? err.code : undefined;
  const message = typeof err.message === 'string' ? err.message : String(e);
  const fromServer = typeof err.severity === 'string';
  if (!fromServer || connecting || (code !== undefined && SESSION_LOST.test(code))) {
    return new SpecgateError(
      'SG_TARGET_UNREACHABLE',
      `cannot use a session on the database at ${where}${code ? ` (${code})` : ''}: ${message}; start the database, or fix \`database.url\` (host, port, user, password, database name) in the target profile`,
      { ...(code ? { errno: code } : {}) },
      { cause: e },
    );
  }
  return new DatabaseAnswerError(message, code, typeof err.detail === 'string' ? err.detail : undefined);
}
