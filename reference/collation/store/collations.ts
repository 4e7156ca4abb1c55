/**
 * Collation documents as the store keeps them: parsed by the comparator it was given, remembered
 * with the document as written, compared for equality, and echoed back.
 */
import type { Collation, Collator } from '../types.js';
import type { StoreFaults } from './faults.js';
import { codedError, Refusal } from './refusal.js';
import { clone } from './values.js';

/** What the store needs from a comparator (reference/collation/comparator, or a stand-in). */
export interface Comparator {
  parseCollation(doc: unknown): Collation;
  makeCollator(c: Collation): Collator;
}

export interface StoredCollation {
  collation: Collation;
  /** The document as the user wrote it (echoed as written only under a planted fault). */
  written: unknown;
  /** Set when an invalid document was let through (planted fault `invalidCollationAccepted`). */
  invalid?: boolean;
}

export const SIMPLE: StoredCollation = { collation: 'simple', written: { locale: 'simple' } };

export function collationsEqual(a: Collation, b: Collation): boolean {
  if (a === 'simple' || b === 'simple') return a === b;
  return (
    a.locale === b.locale &&
    a.strength === b.strength &&
    a.caseLevel === b.caseLevel &&
    a.caseFirst === b.caseFirst &&
    a.numericOrdering === b.numericOrdering &&
    a.alternate === b.alternate &&
    a.maxVariable === b.maxVariable &&
    a.normalization === b.normalization &&
    a.backwards === b.backwards
  );
}

export function describeCollation(c: Collation): string {
  return c === 'simple' ? 'simple' : `{locale: "${c.locale}", strength: ${c.strength}}`;
}

export class Collations {
  private readonly collators = new Map<string, Collator>();

  constructor(
    private readonly comparator: Comparator,
    private readonly faults: StoreFaults,
  ) {}

  /** Parses a collation document; an invalid one is refused with the comparator's code. */
  parse(doc: unknown, where: string): StoredCollation {
    try {
      return { collation: this.comparator.parseCollation(doc), written: clone(doc) };
    } catch (e) {
      if (this.faults.invalidCollationAccepted === true) return { collation: 'simple', written: clone(doc), invalid: true };
      const coded = codedError(e);
      if (coded !== undefined) throw new Refusal(coded.codeName, `${where}: ${coded.message}`, coded.code);
      const text = e instanceof Error ? e.message : String(e);
      throw new Refusal('BadValue', `${where}: invalid collation document (${text}); write e.g. {locale: "en", strength: 2}`);
    }
  }

  /** Parses an optional `collation` field; absent gives undefined. */
  parseOptional(doc: unknown, where: string): StoredCollation | undefined {
    return doc === undefined ? undefined : this.parse(doc, where);
  }

  collator(c: Collation): Collator {
    const key = JSON.stringify(c);
    let found = this.collators.get(key);
    if (found === undefined) {
      found = this.comparator.makeCollator(c);
      this.collators.set(key, found);
    }
    return found;
  }

  /** The `collation` value listCollections and listIndexes show; undefined means "no collation key". */
  echo(s: StoredCollation): unknown {
    if (s.invalid === true) return clone(s.written);
    if (s.collation === 'simple') return this.faults.simpleStoredExplicitly === true ? { locale: 'simple' } : undefined;
    return this.faults.echoOmitsDefaults === true ? clone(s.written) : { ...s.collation };
  }
}
