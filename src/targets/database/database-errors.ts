import { SpecgateError } from '../../errors.js';

/** What `expect.error` of a `query:` or `command:` step is matched against. */
export interface DatabaseRefusal {
  /** SQL: the SQLSTATE; document databases: the code name (`DuplicateKey`). */
  code: string | undefined;
  /** Document databases only: the numeric code (11000). */
  number?: number;
  message: string;
}

/**
 * The database refused a statement or a command (syntax error, missing table, constraint,
 * unsupported collation, a reply with `ok: 0`...). This is the target's answer, not a harness
 * fault: a `query:` or `command:` step records it as the `error` its expectation matches. Should
 * it escape a step, it reports as a protocol fault.
 */
export class DatabaseAnswerError extends SpecgateError {
  /** The database's own error code (PostgreSQL: the five-character SQLSTATE; document databases: the code name). */
  readonly sqlState: string | undefined;
  /** A document database's numeric error code, when it gave one. */
  readonly number: number | undefined;
  /** The database's message, without the harness's advice around it. */
  readonly dbMessage: string;

  constructor(dbMessage: string, sqlState: string | undefined, detail?: string, opts: { number?: number; what?: 'statement' | 'command' } = {}) {
    const what = opts.what ?? 'statement';
    const shown = [sqlState, opts.number].filter((x) => x !== undefined).join(' ');
    super('SG_TARGET_PROTOCOL', `the database rejected the ${what}${shown ? ` (${shown})` : ''}: ${dbMessage}; expect it with \`expect: { error: ... }\` if the case means it to fail`, {
      ...(sqlState ? { sqlState } : {}),
      ...(opts.number !== undefined ? { number: opts.number } : {}),
      ...(detail ? { detail } : {}),
    });
    this.name = 'DatabaseAnswerError';
    this.sqlState = sqlState;
    this.number = opts.number;
    this.dbMessage = dbMessage;
  }

  /**
   * A document database's refusal from its reply (`{ ok: 0, errmsg, code, codeName }`), or from
   * what a driver's server error carries.
   */
  static refusedCommand(reply: { codeName?: unknown; code?: unknown; errmsg?: unknown; message?: unknown }): DatabaseAnswerError {
    const codeName = typeof reply.codeName === 'string' ? reply.codeName : undefined;
    const number = typeof reply.code === 'number' ? reply.code : typeof reply.code === 'bigint' ? Number(reply.code) : undefined;
    const message = typeof reply.errmsg === 'string' ? reply.errmsg : typeof reply.message === 'string' ? reply.message : '(no message)';
    return new DatabaseAnswerError(message, codeName, undefined, { what: 'command', ...(number !== undefined ? { number } : {}) });
  }

  /** The shape `expect.error` is matched against: `{ code, message }`, plus `number` when the database gave one. */
  toObservation(): DatabaseRefusal {
    return { code: this.sqlState, ...(this.number !== undefined ? { number: this.number } : {}), message: this.dbMessage };
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
