import type { ResolvedCollation } from '../types.js';
import { BoundedStringMemo } from './bounded-string-memo.js';
import { makeIntlCollator } from './engine-intl.js';
import { hanOrderMap } from './han-order.js';
import { flagsOf, intlView, unitFlags, UNIT_DIGIT, UNIT_IDEOGRAPHIC, UNIT_SPACE, type IntlView } from './intl-view.js';

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
 * from the start. Two strings holding different ideographs of the main CJK block go to Intl
 * too, rewritten so that Intl orders the ideographs as ICU4X does (han-order.ts), where the
 * locale allows. A sort makes about log2(n) comparisons per string, so what is derived from a
 * string is kept in a bounded memo (bounded-string-memo.ts) and derived once; a string a scan of
 * its code units shows to need nothing derived is not looked up at all.
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
  /**
   * The document's locale at primary strength (ICU4X), made on first need: with it the order of
   * the main block's ideographs is checked and, where it allows, two strings holding different
   * ideographs are compared by Intl too (han-order.ts). Without it they are left to `full`.
   */
  readonly primary?: () => (a: string, b: string) => number;
  /** Entries per generation of the per-string memo (tests make it small). */
  readonly memoGeneration?: number;
}

/** Per locale, the map of the main block's ideographs (han-order.ts), or null when there is none. */
const hanMaps = new Map<string, Uint16Array | null>();

function hanMapFor(c: ResolvedCollation, levels: ResolvedCollation, primary: () => (a: string, b: string) => number): () => Uint16Array | undefined {
  return () => {
    let map = hanMaps.get(c.locale);
    if (map === undefined) {
      const intl = makeIntlCollator({ ...levels, strength: 1, caseLevel: false, caseFirst: 'off' });
      map = (intl === undefined ? undefined : hanOrderMap(primary(), intl.compare)) ?? null;
      hanMaps.set(c.locale, map);
    }
    return map ?? undefined;
  };
}

/**
 * The comparison for `c` with Intl deciding the levels it can, or undefined when Intl shares no
 * level with the document (non-ignorable Thai, collation types Node's ICU lacks).
 *
 * Most strings need no view (intl-view.ts): a scan of their code units (unitFlags) shows that
 * the view would be the string itself and Intl may decide, and the pair goes to Intl without a
 * memo lookup. Only strings with what the document cares about (ideographs on both sides,
 * non-ASCII digits under numericOrdering, whitespace under maxVariable space) are looked up.
 */
export function makeIntlFirstCompare(c: ResolvedCollation, parts: IntlFirstParts): ((a: string, b: string) => number) | undefined {
  const levels = intlLevelsOf(c);
  const intl = levels === undefined ? undefined : makeIntlCollator(levels);
  if (levels === undefined || intl === undefined) return undefined;
  const { full, tertiary, primary } = parts;
  const spaceShifted = c.alternate === 'shifted' && c.maxVariable === 'space';
  const keepsWeightsAfterSpace = spaceShifted && tertiary !== undefined ? keepsWeightsAfterSpaceBy(tertiary) : undefined;
  const options = { numeric: c.numericOrdering, ...(keepsWeightsAfterSpace ? { keepsWeightsAfterSpace } : {}), ...(primary ? { hanMap: hanMapFor(c, levels, primary) } : {}) };
  const views = new BoundedStringMemo<IntlView>((s) => intlView(s, options), { generation: parts.memoGeneration ?? MEMO_GENERATION, maxKeyLength: MEMO_MAX_KEY_LENGTH });
  const intlCompare = intl.compare;
  const table = unitFlags();
  // the flags that send a string to its view whichever the other string is
  const alone = (c.numericOrdering ? UNIT_DIGIT : 0) | (spaceShifted ? UNIT_SPACE : 0);
  // both strings hold ideographs: their views tell whether Intl may compare them, and what
  const bothIdeographic = (a: string, b: string): number => {
    const x = views.get(a);
    const y = views.get(b);
    if (!x.refused && !y.refused) {
      const p = x.rewritten;
      const q = y.rewritten;
      if (p !== undefined && q !== undefined) {
        const r = intlCompare(p, q);
        if (r !== 0) return r;
      } else if (x.ideographs === y.ideographs || x.ideographs === '' || y.ideographs === '') {
        const r = intlCompare(x.text, y.text);
        if (r !== 0) return r;
      }
    }
    return full(a, b);
  };
  if (alone === 0) {
    // only ideographs on both sides need a view: the second string is scanned only when the first holds some
    return (a, b) => {
      if (a === b) return 0;
      if ((flagsOf(a, table) & UNIT_IDEOGRAPHIC) !== 0 && (flagsOf(b, table) & UNIT_IDEOGRAPHIC) !== 0) return bothIdeographic(a, b);
      const r = intlCompare(a, b);
      return r !== 0 ? r : full(a, b);
    };
  }
  return (a, b) => {
    if (a === b) return 0;
    const fa = flagsOf(a, table);
    const fb = flagsOf(b, table);
    if ((fa & fb & UNIT_IDEOGRAPHIC) !== 0) return bothIdeographic(a, b);
    // at most one holds ideographs, so Intl may compare the texts; a string without a flag the
    // document cares about is its own text and is not refused, and is not looked up
    let x = a;
    let y = b;
    if ((fa & alone) !== 0) {
      const view = views.get(a);
      if (view.refused) return full(a, b);
      x = view.text;
    }
    if ((fb & alone) !== 0) {
      const view = views.get(b);
      if (view.refused) return full(a, b);
      y = view.text;
    }
    const r = intlCompare(x, y);
    return r !== 0 ? r : full(a, b);
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
