import { createHash } from 'node:crypto';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';
import { openDatabase } from '../../../src/targets/database/open-database.js';
import type { DatabaseConfig, DatabaseTarget } from '../../../src/targets/database/types.js';
import { CollationRefused, type CollationPort } from './types.js';

/**
 * The collation rules (spec 001, F) on PostgreSQL 15 or later: each collation document becomes an
 * ICU collation (`CREATE COLLATION ... provider = icu`), and sorting and equality run in SQL under
 * it. `locale: 'simple'` is the built-in "C" collation: in a UTF8 database it compares bytes, and
 * UTF-8 byte order is code point order.
 *
 * Document validation rules (unknown fields, out-of-range values, unsupported locales) are not
 * applicable on this target: PostgreSQL has no collation documents. The document is translated
 * field by field into ICU locale keywords and PostgreSQL's ICU decides what it accepts. Fields
 * the specification does not name are ignored; ICU falls back to the root collation for a locale
 * it does not know (PostgreSQL 15 does not warn). The port refuses only what cannot be written as
 * a locale at all (a value of the wrong JSON type, or text that would change the locale's syntax).
 *
 * Every collation is nondeterministic, so equality follows the collation. That includes strength
 * 5: ICU's identical level compares the NFD forms, so a precomposed `é` and `e` + U+0301 are equal
 * there, while a deterministic PostgreSQL collation would break the tie by bytes.
 */
export function postgresPort(database: DatabaseTarget | DatabaseConfig): CollationPort {
  // a session the port opens is its own to close; the target's session stays open for later cases
  const owned = !('query' in database);
  const db: DatabaseTarget = 'query' in database ? database : openDatabase(database);
  // collations this port has created (or found), by ICU locale text; CREATE ... IF NOT EXISTS
  // makes a second port's creation of the same collation harmless
  const created = new Map<string, Promise<string>>();

  const collationName = (doc: Record<string, unknown>, signal?: AbortSignal): Promise<string> => {
    const locale = icuLocaleOf(doc);
    if (locale === undefined) return Promise.resolve('C');
    let name = created.get(locale);
    if (!name) {
      name = createCollation(db, locale, signal);
      created.set(locale, name);
      // a refusal or a lost session is not remembered: the next use asks the database again
      name.catch(() => created.delete(locale));
    }
    return name;
  };

  return {
    description: `PostgreSQL ICU collations at ${db.description}`,
    documents: false,
    async sort(strings, collation, signal) {
      const name = await collationName(collation, signal);
      // the ordinal keeps the answer reproducible among strings the collation finds equal
      const res = await db.query(
        `SELECT s FROM unnest($1::text[]) WITH ORDINALITY AS t(s, i) ORDER BY s COLLATE ${quoteIdent(name)}, i`,
        [strings],
        signal,
      );
      return res.rows.map((r) => String(r['s']));
    },
    async matches(strings, probe, collation, signal) {
      const name = await collationName(collation, signal);
      const res = await db.query(
        `SELECT s FROM unnest($1::text[]) WITH ORDINALITY AS t(s, i) WHERE s = $2::text COLLATE ${quoteIdent(name)} ORDER BY i`,
        [strings, probe],
        signal,
      );
      return res.rows.map((r) => String(r['s']));
    },
    close: () => (owned ? db.close() : Promise.resolve()),
  };
}

/** `sg_<12 hex>`: one name per ICU locale text, so every port reuses what another created. */
export function postgresCollationName(icuLocale: string): string {
  return `sg_${createHash('sha256').update(icuLocale).digest('hex').slice(0, 12)}`;
}

async function createCollation(db: DatabaseTarget, locale: string, signal?: AbortSignal): Promise<string> {
  const name = postgresCollationName(locale);
  const sql = `CREATE COLLATION IF NOT EXISTS ${quoteIdent(name)} (provider = icu, locale = ${quoteLiteral(locale)}, deterministic = false)`;
  try {
    await db.query(sql, [], signal);
  } catch (e) {
    if (!(e instanceof DatabaseAnswerError)) throw e;
    // another session created the same collation between our check and our insert
    if (e.sqlState === '23505') return name;
    throw new CollationRefused(e.sqlState, `PostgreSQL refused the ICU collation "${locale}": ${e.dbMessage}`);
  }
  return name;
}

/** ICU's legacy keyword names (the `@key=value` form of a locale ID), by document field. */
const KEYWORDS = {
  strength: 'colstrength',
  caseLevel: 'colcaselevel',
  caseFirst: 'colcasefirst',
  numericOrdering: 'colnumeric',
  alternate: 'colalternate',
  maxVariable: 'kv',
  backwards: 'colbackwards',
  normalization: 'colnormalization',
} as const;

const STRENGTHS: Record<number, string> = { 1: 'primary', 2: 'secondary', 3: 'tertiary', 4: 'quaternary', 5: 'identical' };
const BOOLEAN_FIELDS = new Set(['caseLevel', 'numericOrdering', 'backwards', 'normalization']);
/** caseFirst `off` is ICU's `no`; every other text goes to ICU as written. */
const TEXT_VALUES: Record<string, Record<string, string>> = { caseFirst: { off: 'no' } };

/**
 * The ICU locale ID a collation document translates to (`fr_CA@colbackwards=no;colstrength=primary`),
 * or undefined for `simple`. Only the fields the document states are written: the locale's own
 * defaults are ICU's to apply. Throws {@link CollationRefused} for a document that has no such text.
 */
export function icuLocaleOf(doc: Record<string, unknown>): string | undefined {
  const locale = doc['locale'];
  if (typeof locale !== 'string' || !/^[A-Za-z0-9_-]+(@[A-Za-z0-9_=;-]+)?$/.test(locale))
    throw untranslatable('locale', locale);
  if (locale === 'simple') return undefined;
  const keywords: string[] = [];
  for (const [field, key] of Object.entries(KEYWORDS)) {
    const value = doc[field];
    if (value === undefined) continue;
    keywords.push(`${key}=${keywordValue(field, value)}`);
  }
  if (keywords.length === 0) return locale;
  return `${locale}${locale.includes('@') ? ';' : '@'}${keywords.join(';')}`;
}

function keywordValue(field: string, value: unknown): string {
  if (field === 'strength') {
    // an integer outside 1..5 goes to ICU as a number, which it refuses
    if (typeof value !== 'number' || !Number.isInteger(value)) throw untranslatable(field, value);
    return STRENGTHS[value] ?? String(value);
  }
  if (BOOLEAN_FIELDS.has(field)) {
    if (typeof value !== 'boolean') throw untranslatable(field, value);
    return value ? 'yes' : 'no';
  }
  if (typeof value !== 'string' || !/^[A-Za-z0-9-]+$/.test(value)) throw untranslatable(field, value);
  return TEXT_VALUES[field]?.[value] ?? value;
}

function untranslatable(field: string, value: unknown): CollationRefused {
  return new CollationRefused(undefined, `${field} ${JSON.stringify(value) ?? String(value)} cannot be written as a PostgreSQL ICU collation locale`);
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
