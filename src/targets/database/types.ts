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
