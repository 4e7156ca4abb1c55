/**
 * The reference comparator for spec part F (string collation): validates collation documents,
 * resolves them with each locale's defaults, and compares strings as ICU does.
 *
 * Engines, chosen per resolved document:
 *
 * | document                                                        | engine                          |
 * |-----------------------------------------------------------------|---------------------------------|
 * | `{locale: 'simple'}`                                            | code point order                |
 * | strength 1-3, caseLevel only at strength 1, shifted only with   | Node's Intl.Collator            |
 * | maxVariable punct, non-ignorable only where it is the default,  |                                 |
 * | collation type known to Node's ICU                              |                                 |
 * | anything else (strength 4/5, caseLevel at 2/3, maxVariable      | ICU4X (`icu` package)           |
 * | space, non-ignorable Thai, big5han/gb2312han)                   |                                 |
 * | backwards differing from the locale's own default (strength>1)  | secondary-direction layer on    |
 * |                                                                 | top of one of the two above     |
 *
 * ICU4X is asked only what Intl leaves open: Intl decides the levels it shares with the document
 * (intl-first.ts), and ICU4X compares strings already copied into its memory (icu4x-direct.ts).
 */
import { loadIcu4x } from './engine-icu4x.js';

export { parseCollation } from './parse.js';
export { makeCollator, collatorFor } from './make-collator.js';
export type { EngineName } from './make-collator.js';
export { icuKeywords } from './icu-keywords.js';
export { CollationDocumentError } from './errors.js';
export type { CollationErrorName } from './errors.js';
export { toBcp47 } from './locale.js';
export { compareCodePoints } from './engine-simple.js';
export { fcd, isFcd } from './fcd.js';

/**
 * Loads what the comparator needs before its first comparison (ICU4X, a WebAssembly module, for
 * the documents Node's Intl cannot express). Await it once before comparing; importing the
 * comparator costs nothing until then.
 */
export async function prepareComparator(): Promise<void> {
  await loadIcu4x();
}
