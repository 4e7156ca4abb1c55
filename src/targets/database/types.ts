/**
 * The database port: what a `query:` step needs from a target that is a database. The engine
 * knows no database product; an adapter (PostgreSQL today) turns this into its wire protocol.
 */

/** One query's answer: the rows as column name -> value, how many rows it touched, the column names in order. */
export interface QueryResult {
  rows: Record<string, unknown>[];
  /** Rows returned (SELECT) or affected (INSERT, UPDATE, DELETE); 0 for statements without rows. */
  rowCount: number;
  /** Column names in the order the database answered them. */
  fields: string[];
}

/**
 * A database a suite's cases talk to. Queries of one target share one session: they run one at a
 * time, and session state (SET, temporary tables) is seen by every later query.
 */
export interface DatabaseTarget {
  /** Shown in reports; never contains a password. */
  readonly description: string;
  /**
   * Runs one statement with positional parameters (`$1`, `$2`, ...). A statement the database
   * rejects throws a {@link DatabaseAnswerError} (a finding a case may expect); a database that
   * cannot be reached or does not answer in time throws SG_TARGET_UNREACHABLE / SG_TARGET_TIMEOUT.
   */
  query(sql: string, params: readonly unknown[], signal?: AbortSignal): Promise<QueryResult>;
  /** Ends the session; later queries open a new one. */
  close(): Promise<void>;
}

/** How a target profile or a reference names its database (`database:` in a profile section). */
export interface DatabaseConfig {
  /** Connection URL, e.g. `postgres://user:password@127.0.0.1:5432/name`. */
  url: string;
  /** Longest a single statement may take (default 30 s). */
  timeoutMs?: number;
}

export { DatabaseAnswerError } from './database-errors.js';

/**
 * The document-database port: what a `command:` step needs from a target that is a document
 * database. A command is a document whose first key names the operation (`{ find: "names",
 * filter: {...} }`, `{ insert: "names", documents: [...] }`); the engine knows no product, and
 * an adapter (the MongoDB driver, a process speaking JSON lines, or an embedded reference)
 * carries it. Commands of one target run one at a time, in order.
 */
export interface DocumentDatabaseTarget {
  /** Shown in reports; never contains a password. */
  readonly description: string;
  /**
   * Runs one command and returns the database's reply as plain JSON values (big integers as
   * `bigint`, dates as ISO text, object ids as hex text). A refusal (a reply with `ok: 0`)
   * throws a {@link DatabaseAnswerError} whose observation is `{ code, number, message }` (an
   * embedded store may instead return the `ok: 0` reply: the engine treats it alike); a
   * database that cannot be reached or does not answer in time throws SG_TARGET_UNREACHABLE /
   * SG_TARGET_TIMEOUT, and one that answers garbage SG_TARGET_PROTOCOL.
   */
  command(doc: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>>;
  /** Ends the session (for a process: ends the process); a later command opens a new one. */
  close(): Promise<void>;
}

/**
 * A document database run as a process speaking JSON lines (exec-protocol.md): `argv` already
 * split by the one command-line rule (command-line.ts), `cwd` absolute.
 */
export interface ExecDatabaseConfig {
  argv: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Longest the process may take to answer one command (default 30 s). */
  timeoutMs?: number;
  /** Longest reply line, in bytes (default 16 MiB): a longer one ends the process as a flood. */
  maxLineBytes?: number;
  /** Longest stderr head kept for messages (default 64 KiB). */
  maxStderrBytes?: number;
}

/**
 * A profile section's `database:` as the engine opens it: a connection URL (the scheme picks a
 * SQL or a document adapter), or a process speaking the JSON-lines protocol (a document database).
 */
export type DatabaseSection = DatabaseConfig | { exec: ExecDatabaseConfig };
