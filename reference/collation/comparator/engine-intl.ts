import type { ResolvedCollation } from '../types.js';
import { localeDefaults } from './icu-locales.js';
import { toBcp47, withUnicodeKeywords } from './locale.js';

/**
 * Node's `Intl.Collator` (the ICU inside Node) for documents its options express exactly.
 * Each mapping below was checked by experiment against ICU4X and ICU's documented levels:
 *
 * - strength 1/2/3 -> sensitivity base/accent/variant; strength 1 with caseLevel -> sensitivity
 *   `case`: V8 sets primary strength plus ICU's case level ('a' < 'A', 'a' = 'á', 'A' > 'á',
 *   the same answers as ICU4X at primary strength with caseLevel on). Sensitivity has no form for
 *   caseLevel at strength 2 or 3, nor for strength 4/5.
 * - alternate shifted with maxVariable punct -> ignorePunctuation true: V8 sets alternate=shifted,
 *   and 'a b' = 'a-b' = 'ab' while 'a$b' > 'ab' (symbols are not variable under punct), as ICU4X
 *   shifted. There is no way to choose maxVariable space.
 * - ignorePunctuation false does NOT set alternate=non-ignorable: V8 only ever switches shifted on,
 *   so Thai (shifted by default) still says 'a b' = 'ab'. Non-ignorable is expressible only where it
 *   is the locale's default; Thai with non-ignorable goes to ICU4X.
 * - caseFirst upper/lower/off -> caseFirst 'upper'/'lower'/'false' (given always, since Danish and
 *   Maltese default to upper); numericOrdering -> numeric.
 * - backwards: no option; usable only when it equals the locale's default (true only for fr_CA).
 * - normalization: V8 always turns ICU's normalization on. ICU with it off is defined only for FCD
 *   text, on which both settings agree, so either value of the field maps here.
 * - `@collation=search` is refused as a `-u-co-` value by ECMA-402; usage 'search' selects it.
 *   Types Node's ICU lacks (big5han, gb2312han) resolve to `default` and are not used here.
 */
export function intlOptionsFor(c: ResolvedCollation): { locales: string; options: Intl.CollatorOptions } | undefined {
  const defaults = localeDefaults(c.locale);
  if (defaults === undefined) return undefined;
  if (c.strength > 3) return undefined;
  if (c.caseLevel && c.strength !== 1) return undefined;
  if (c.backwards !== defaults.backwards) return undefined;
  const shifted = c.alternate === 'shifted';
  if (shifted && c.maxVariable !== 'punct') return undefined;
  if (!shifted && defaults.alternate === 'shifted') return undefined;

  const { tag, collation } = toBcp47(c.locale);
  const search = collation === 'search';
  const locales = collation === undefined || search ? tag : withUnicodeKeywords(tag, ['co', collation]);
  const sensitivity: Intl.CollatorOptions['sensitivity'] =
    c.strength === 1 ? (c.caseLevel ? 'case' : 'base') : c.strength === 2 ? 'accent' : 'variant';
  const options: Intl.CollatorOptions = {
    usage: search ? 'search' : 'sort',
    sensitivity,
    ignorePunctuation: shifted,
    numeric: c.numericOrdering,
    caseFirst: c.caseFirst === 'off' ? 'false' : c.caseFirst,
  };
  return { locales, options };
}

/** An Intl collator for the document, or undefined when Intl cannot express it or lacks its collation type. */
export function makeIntlCollator(c: ResolvedCollation): Intl.Collator | undefined {
  const mapped = intlOptionsFor(c);
  if (mapped === undefined) return undefined;
  const collator = new Intl.Collator(mapped.locales, mapped.options);
  const resolved = collator.resolvedOptions();
  const wanted = toBcp47(c.locale);
  if (wanted.collation !== undefined && wanted.collation !== 'search' && resolved.collation !== wanted.collation) return undefined;
  // Intl falls back silently to another locale when it has no data; root ('und') resolves to en-US,
  // whose order is root's.
  const language = wanted.tag.split('-')[0] ?? '';
  if (language !== 'und' && resolved.locale.split('-')[0] !== language) return undefined;
  return collator;
}
