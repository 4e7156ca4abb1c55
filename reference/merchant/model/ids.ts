/**
 * IDs the service assigns. The real API's numeric IDs travel as strings, so these are decimal
 * strings from one counter: unique across every kind of item, and deterministic per server, so
 * a report can name them.
 */
export class IdSequence {
  private n: number;

  constructor(start = 7_100_000) {
    this.n = start;
  }

  next(): string {
    this.n += 1;
    return String(this.n);
  }
}

/** The seeded merchant account (an advanced account: it may hold sub-accounts). */
export const SEEDED_MERCHANT_ID = '7000001';
/** The seeded comparison-shopping-service group and its one domain. */
export const SEEDED_CSS_GROUP_ID = '8000001';
export const SEEDED_CSS_DOMAIN_ID = '8000002';
