import type { ResolvedCollation } from '../types.js';
import { BoundedStringMemo } from './bounded-string-memo.js';
import { makeIntlCollator } from './engine-intl.js';
import { intlView, type IntlView } from './intl-view.js';

/**
 * ICU4X's answers, mostly given by Node's Intl: the documents Intl cannot express (strength 4
 * and 5, caseLevel at strength 2 and above, maxVariable space) still begin with levels it can.
 *
 * ICU compares level by level and stops at the first level that differs, so a difference at the
 * levels Intl shares with the document decides the whole comparison:
 *
 * | document                                      | Intl decides             |
 * |-----------------------------------------------|--------------------------|
 * | strength 4 or 5                               | levels 1-3 (strength 3)  |
 * | caseLevel at strength 2 and above (the case   | levels 1-2 (strength 2)  |
 * | level comes between levels 2 and 3)           |                          |
 * | alternate shifted, maxVariable space          | levels 1-3 with the      |
 * |                                               | whitespace left out      |
 *
 * Only when Intl finds no difference there does ICU4X (WebAssembly, several times slower per
 * call) compare, and only for what Intl cannot be trusted with (intl-view.ts) does it compare
 * from the start. A sort makes about log2(n) comparisons per string, so what is derived from a
 * string is kept in a bounded memo (bounded-string-memo.ts) and derived once.
 */

/** Entries per generation of the per-string memo: the memo holds at most twice as many. */
const MEMO_GENERATION = 65_536;
/** Strings longer than this are not remembered (bounded-string-memo.ts). */
const MEMO_MAX_KEY_LENGTH = 1_024;

/** The document restricted to the levels Intl shares with it, or undefined when it shares none. */
export function intlLevelsOf(c: ResolvedCollation): ResolvedCollation | undefined {
  const spaceShifted = c.alternate === 'shifted' && c.maxVariable === 'space';
  if (c.caseLevel && c.strength > 1) return { ...c, strength: 2, caseLevel: false, ...(spaceShifted ? { alternate: 'non-ignorable', maxVariable: 'punct' } : {}) };
  if (c.strength > 3) return { ...c, strength: 3, ...(spaceShifted ? { alternate: 'non-ignorable', maxVariable: 'punct' } : {}) };
  if (spaceShifted) return { ...c, alternate: 'non-ignorable', maxVariable: 'punct' };
  return undefined;
}

export interface IntlFirstParts {
  /** The document's whole comparison (ICU4X). */
  readonly full: (a: string, b: string) => number;
  /**
   * Given for alternate shifted with maxVariable space: the document at strength 3 without
   * caseLevel (ICU4X), which tells whether a character keeps its weights after a whitespace
   * character.
   */
  readonly tertiary?: (a: string, b: string) => number;
  /** Entries per generation of the per-string memo (tests make it small). */
  readonly memoGeneration?: number;
}

/**
 * The comparison for `c` with Intl deciding the levels it can, or undefined when Intl shares no
 * level with the document (non-ignorable Thai, collation types Node's ICU lacks).
 */
export function makeIntlFirstCompare(c: ResolvedCollation, parts: IntlFirstParts): ((a: string, b: string) => number) | undefined {
  const levels = intlLevelsOf(c);
  const intl = levels === undefined ? undefined : makeIntlCollator(levels);
  if (intl === undefined) return undefined;
  const { full, tertiary } = parts;
  const keepsWeightsAfterSpace = c.alternate === 'shifted' && c.maxVariable === 'space' && tertiary !== undefined ? keepsWeightsAfterSpaceBy(tertiary) : undefined;
  const options = { numeric: c.numericOrdering, ...(keepsWeightsAfterSpace ? { keepsWeightsAfterSpace } : {}) };
  const views = new BoundedStringMemo<IntlView>((s) => intlView(s, options), { generation: parts.memoGeneration ?? MEMO_GENERATION, maxKeyLength: MEMO_MAX_KEY_LENGTH });
  const intlCompare = intl.compare;
  return (a, b) => {
    if (a === b) return 0;
    const x = views.get(a);
    const y = views.get(b);
    if (!x.refused && !y.refused && (x.ideographs === y.ideographs || x.ideographs === '' || y.ideographs === '')) {
      const r = intlCompare(x.text, y.text);
      if (r !== 0) return r;
    }
    return full(a, b);
  };
}

/**
 * Whether a character keeps its weights after a whitespace character under alternate shifted:
 * it is not ignorable, and U+0020 followed by it compares equal to it alone at strength 3 (a
 * combining mark, or a character that begins with one, is dropped after a variable character).
 * Asked of ICU4X once per character.
 */
function keepsWeightsAfterSpaceBy(tertiary: (a: string, b: string) => number): (codePoint: number) => boolean {
  const known = new BoundedStringMemo<boolean>((ch) => tertiary(ch, '') !== 0 && tertiary(` ${ch}`, ch) === 0, { generation: 4_096, maxKeyLength: 2 });
  return (cp) => known.get(String.fromCodePoint(cp));
}
