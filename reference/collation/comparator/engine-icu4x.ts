import { SpecgateError } from '../../../src/errors.js';
import type { ResolvedCollation } from '../types.js';
import { directCompare, loadIcu4xDirect } from './icu4x-direct.js';
import { toBcp47, withUnicodeKeywords } from './locale.js';

/**
 * ICU4X (the `icu` package, a ~20 MB WebAssembly module) for documents Node's Intl cannot express:
 * strength 4 and 5, caseLevel at strength 2 or 3, maxVariable space, non-ignorable Thai.
 *
 * The module instantiates its WebAssembly with a top-level await, so it cannot be loaded on
 * demand from a synchronous compare: `loadIcu4x()` loads it once (about 0.5 s of compiling and
 * 80 MB), and everything that compares under a collation awaits it first (the reference store's
 * start, the suite's checks, the store process). Nothing pays for it at import: every command of
 * the CLI imports the built-in suites, and most never compare a string.
 *
 * caseFirst and numericOrdering go through the locale's `-u-kf-` / `-u-kn-` keywords. ICU4X has no
 * backwards option (the backwards layer handles that) and always normalizes (see engine-intl.ts on
 * why that is fine).
 *
 * Every option is passed explicitly: in icu 2.3.2 an option left out is not reset to the locale
 * default but keeps the value of the previously constructed collator (after building a primary,
 * caseLevel collator, a plain `fr` collator sorted cote/côte/coté/côté as all equal).
 */
type Icu = typeof import('icu');

let loaded: Icu | undefined;
let loading: Promise<Icu> | undefined;

/** Loads ICU4X once; later calls return the same promise. */
export function loadIcu4x(): Promise<Icu> {
  loading ??= import('icu').then(async (m) => {
    await loadIcu4xDirect();
    loaded = m;
    return m;
  });
  return loading;
}

function icu4x(): Icu {
  if (!loaded)
    throw new SpecgateError('SG_INTERNAL', 'the ICU4X engine is not loaded yet: await prepareComparator() (reference/collation/comparator) before comparing under strength 4 or 5, caseLevel at strength 2 or 3, or maxVariable space');
  return loaded;
}

function strengthOf(icu: Icu, s: ResolvedCollation['strength']): InstanceType<Icu['CollatorStrength']> {
  return [icu.CollatorStrength.Primary, icu.CollatorStrength.Secondary, icu.CollatorStrength.Tertiary, icu.CollatorStrength.Quaternary, icu.CollatorStrength.Identical][s - 1] ?? icu.CollatorStrength.Tertiary;
}

/** The BCP 47 tag ICU4X is given: locale, collation type, caseFirst and numeric keywords. */
export function icu4xLocaleTag(c: ResolvedCollation): string {
  const { tag, collation } = toBcp47(c.locale);
  const keywords: string[] = [];
  if (collation !== undefined) keywords.push('co', collation);
  keywords.push('kf', c.caseFirst === 'off' ? 'false' : c.caseFirst, 'kn', String(c.numericOrdering));
  return withUnicodeKeywords(tag, keywords);
}

export function makeIcu4xCompare(c: ResolvedCollation): (a: string, b: string) => number {
  const icu = icu4x();
  const collator = new icu.Collator(icu.Locale.fromString(icu4xLocaleTag(c)), {
    strength: strengthOf(icu, c.strength),
    alternateHandling: c.alternate === 'shifted' ? icu.CollatorAlternateHandling.Shifted : icu.CollatorAlternateHandling.NonIgnorable,
    maxVariable: c.maxVariable === 'space' ? icu.CollatorMaxVariable.Space : icu.CollatorMaxVariable.Punctuation,
    caseLevel: c.caseLevel ? icu.CollatorCaseLevel.On : icu.CollatorCaseLevel.Off,
  });
  // each string copied into WebAssembly memory once, not on every call (icu4x-direct.ts)
  return directCompare(collator.ffiValue, (a, b) => collator.compare(a, b));
}
