import type { ResolvedCollation } from '../types.js';
import { toBcp47, withUnicodeKeywords } from './locale.js';

const STRENGTH: Readonly<Record<number, string>> = { 1: 'level1', 2: 'level2', 3: 'level3', 4: 'level4', 5: 'identic' };
const CASE_FIRST: Readonly<Record<string, string>> = { upper: 'upper', lower: 'lower', off: 'false' };

/**
 * The resolved document as one BCP 47 tag with every ICU collation keyword spelled out
 * (`fr-CA-u-ka-noignore-kb-false-...`), the form PostgreSQL's ICU collations
 * (`CREATE COLLATION ... (provider = icu, locale = '...')`) and PyICU's `Collator.createInstance`
 * accept, so a real ICU can be driven with exactly the same settings.
 *
 * Every keyword is given, even when it equals the locale's default, so the meaning does not
 * depend on the other side's defaults. `kk` is ICU's normalization switch.
 */
export function icuKeywords(c: ResolvedCollation): string {
  const { tag, collation } = toBcp47(c.locale);
  const keywords: string[] = [];
  if (collation !== undefined) keywords.push('co', collation);
  keywords.push(
    'ka', c.alternate === 'shifted' ? 'shifted' : 'noignore',
    'kb', String(c.backwards),
    'kc', String(c.caseLevel),
    'kf', CASE_FIRST[c.caseFirst] ?? 'false',
    'kk', String(c.normalization),
    'kn', String(c.numericOrdering),
    'ks', STRENGTH[c.strength] ?? 'level3',
    'kv', c.maxVariable,
  );
  return withUnicodeKeywords(tag, keywords);
}
