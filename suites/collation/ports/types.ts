/**
 * What the collation suite's comparator checks need from a target, whatever it is: sort a list
 * of strings and find which strings equal a probe, both under one collation document. A document
 * database (the reference store, a driver, an `exec:` adapter) answers through its commands; a
 * SQL database with ICU collations (PostgreSQL) answers through collations built from the
 * document's fields. View and index rules need a document database; on a comparator-only target
 * their cases are reported not applicable.
 */
export interface CollationPort {
  /** Shown in reports. */
  readonly description: string;
  /** True when the target runs document commands (collections, views, indexes); false for comparator-only targets. */
  readonly documents: boolean;
  /**
   * The strings in the target's order under the collation document (ties in any order). A
   * document the target refuses throws {@link CollationRefused}.
   */
  sort(strings: readonly string[], collation: Record<string, unknown>, signal?: AbortSignal): Promise<string[]>;
  /** The strings the target finds equal to `probe` under the collation document (an equality match). */
  matches(strings: readonly string[], probe: string, collation: Record<string, unknown>, signal?: AbortSignal): Promise<string[]>;
  close(): Promise<void>;
}

/** The target refused the collation document (not a harness or connection error). */
export class CollationRefused extends Error {
  constructor(
    readonly codeName: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'CollationRefused';
  }
}
