/**
 * The shapes the collation reference is built from: a collation document as a user writes it, the
 * same document resolved (every field filled in, the locale's defaults applied), and a collator.
 *
 * Field names follow the specification's table (part F, "Collation document"). The specification
 * leaves the name of the ninth flag "not shown"; specgate calls it `normalization` (the name the
 * best-known document database uses) and says so in the suite's README.
 */

/** Levels of comparison (ICU comparison levels): 1 primary .. 4 quaternary, 5 identical. */
export type Strength = 1 | 2 | 3 | 4 | 5;
export type CaseFirst = 'upper' | 'lower' | 'off';
export type Alternate = 'non-ignorable' | 'shifted';
export type MaxVariable = 'punct' | 'space';

/** A collation document with every field present: what a store echoes back for a valid document. */
export interface ResolvedCollation {
  /** The locale as the user wrote it (ICU form, e.g. `fr_CA`, `zh@collation=unihan`); never `simple` here. */
  locale: string;
  strength: Strength;
  caseLevel: boolean;
  caseFirst: CaseFirst;
  numericOrdering: boolean;
  alternate: Alternate;
  maxVariable: MaxVariable;
  normalization: boolean;
  backwards: boolean;
}

/** `simple` (binary comparison of code points) or a resolved ICU collation. */
export type Collation = 'simple' | ResolvedCollation;

/** Compares strings under one collation. Pure and synchronous; safe to call millions of times. */
export interface Collator {
  readonly collation: Collation;
  /** Negative, zero or positive, as `Array.prototype.sort` expects. */
  compare(a: string, b: string): number;
  /** Whether the two strings are equal under this collation (a match, a distinct value, a unique key). */
  equals(a: string, b: string): boolean;
}
