/**
 * PostgreSQL's compare() signs for pairs of strings under the ICU collation the PostgreSQL port
 * made for a document: its `=` and `<` operators, which call ICU's string comparison. (ORDER BY
 * may answer through ICU sort keys instead, and where ICU's two disagree the operators are what
 * a comparison means.)
 */
import type { DatabaseTarget } from '../../../../src/targets/database/types.js';
import { icuLocaleOf, postgresCollationName } from '../../../../suites/collation/ports/postgres.js';
import type { CollationDocument } from './documents.js';
import type { Pair } from './orders.js';

/** The signs, in one query; the port must already have used the document (so its collation exists). */
export async function pgSigns(db: DatabaseTarget, doc: CollationDocument, pairs: readonly Pair[]): Promise<number[]> {
  const locale = icuLocaleOf(doc);
  const name = locale === undefined ? 'C' : postgresCollationName(locale);
  const res = await db.query(
    `SELECT CASE WHEN a = b COLLATE "${name}" THEN 0 WHEN a < b COLLATE "${name}" THEN -1 ELSE 1 END AS sign
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(a, b, i) ORDER BY i`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  return res.rows.map((r) => Number(r['sign']));
}
