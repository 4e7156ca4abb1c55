import { inMainBlock, rewriteHan } from './han-order.js';

/**
 * What Node's Intl is shown of a string when it decides the first levels of a comparison for
 * ICU4X (intl-first.ts), and whether it may decide at all. Intl (ICU 78) and the ICU4X data agree
 * on the order of every character at levels 1 to 3 except these, each handled here:
 *
 * - Han ideographs: ICU4X orders them by the UCA's implicit weights (code point order, the
 *   extension blocks after the main block), ICU by radical and stroke; every character whose
 *   compatibility decomposition holds an ideograph (㈠, ⼀, 🈐) carries an ideograph's weight too.
 *   Against every other character the two agree (intl-first.test.ts checks both claims). So two
 *   strings that both hold ideographs are left to ICU4X unless they hold the same ones in the same
 *   order (then wherever the first primary difference is, the two characters there are not both
 *   ideographs: the ideographs before it pair up, one for one and equal), or every ideograph of
 *   both is in the main block and the locale has a map for it (han-order.ts): then Intl compares
 *   the strings with their ideographs rewritten.
 * - Decimal digits other than ASCII under numericOrdering: ICU's string comparison reads a number
 *   that continues past a shared prefix differently from ICU4X in locales that reorder scripts
 *   (test/reference/collation/differential/known-differences.ts); a string with one is left to
 *   ICU4X.
 * - maxVariable `space`, which Intl cannot set: under alternate shifted the whitespace characters
 *   (and nothing else) weigh nothing at levels 1 to 3, so Intl is shown the string without them
 *   and compares as non-ignorable. Where that would not hold, the string is left to ICU4X: a
 *   whitespace character followed by one whose first weights are ignorable at primary level (a
 *   combining mark: shifted drops it after a variable character), or a character that is not
 *   whitespace but decomposes to some (U+FE70, U+00A8).
 */
export interface IntlView {
  /** The text Intl compares. */
  readonly text: string;
  /** The characters with a Han ideograph's primary weight, in order ('' for none). */
  readonly ideographs: string;
  /** Whether Intl must not decide for this string at all. */
  readonly refused: boolean;
  /**
   * The text with its ideographs rewritten so that Intl orders them as ICU4X does (han-order.ts):
   * the text itself when it holds no ideograph, undefined when it holds one outside the main
   * block (or no rewriting map is known). Two strings that both have one are compared by Intl
   * whatever ideographs they hold.
   */
  readonly rewritten: string | undefined;
}

/**
 * Characters whose weights are a Han ideograph's: ideographs, radicals, and the ranges of
 * characters whose compatibility decomposition holds an ideograph (parenthesized, circled and
 * squared ideographs, kanbun, CJK strokes).
 */
const IDEOGRAPHIC =
  /[\p{Ideographic}\p{Unified_Ideograph}\p{Radical}\u3192-\u319F\u31C0-\u31EF\u3220-\u3247\u3280-\u32B0\u32C0-\u32CB\u32FF\u3358-\u3370\u337B-\u337F\u33E0-\u33FE\u{1F210}-\u{1F23B}\u{1F240}-\u{1F251}]/gu;

/** A decimal digit other than ASCII 0-9. */
const NON_ASCII_DIGIT = /(?![0-9])\p{Nd}/u;

const WHITESPACE_RUNS = /\p{White_Space}+/gu;

/**
 * Characters that are not whitespace but whose compatibility decomposition holds some (spacing
 * accents such as U+00A8 and U+00B4, Greek spacing marks, Arabic isolated forms of marks, U+FDFA):
 * the Unicode data's whole list, which intl-view.test.ts recomputes from NFKD.
 */
const DECOMPOSES_TO_WHITESPACE =
  /[\u00A8\u00AF\u00B4\u00B8\u02D8-\u02DD\u037A\u0384\u0385\u1FBD\u1FBF-\u1FC1\u1FCD-\u1FCF\u1FDD-\u1FDF\u1FED\u1FEE\u1FFD\u1FFE\u2017\u203E\u309B\u309C\uFC5E-\uFC63\uFDFA\uFDFB\uFE49-\uFE4C\uFE70\uFE72\uFE74\uFE76\uFE78\uFE7A\uFE7C\uFE7E\uFFE3]/;

/** Anything beyond printable ASCII: a string without it needs no closer look. */
const BEYOND_ASCII = /[^\x20-\x7e]/;

export interface IntlViewOptions {
  /** numericOrdering is on. */
  readonly numeric: boolean;
  /**
   * Given for alternate shifted with maxVariable space: whether a character (a code point) keeps
   * its weights when it follows a whitespace character that is left out.
   */
  readonly keepsWeightsAfterSpace?: (codePoint: number) => boolean;
  /** The map that rewrites the main block's ideographs (han-order.ts), made on first need; undefined when there is none. */
  readonly hanMap?: () => Uint16Array | undefined;
}

/** The view of one string (see {@link IntlView}). */
export function intlView(s: string, options: IntlViewOptions): IntlView {
  const ascii = !BEYOND_ASCII.test(s);
  const ideographs = ascii ? '' : (s.match(IDEOGRAPHIC)?.join('') ?? '');
  let refused = options.numeric && !ascii && NON_ASCII_DIGIT.test(s);
  let text = s;
  const keeps = options.keepsWeightsAfterSpace;
  if (keeps !== undefined && !refused && (!ascii || s.includes(' '))) {
    if (!ascii && DECOMPOSES_TO_WHITESPACE.test(s)) refused = true;
    else
      text = s.replace(WHITESPACE_RUNS, (run: string, at: number) => {
        const next = s.codePointAt(at + run.length);
        if (next !== undefined && !keeps(next)) refused = true;
        return '';
      });
  }
  return { text, ideographs, refused, rewritten: ideographs === '' ? text : rewrittenHan(text, ideographs, options.hanMap) };
}

function rewrittenHan(text: string, ideographs: string, hanMap: (() => Uint16Array | undefined) | undefined): string | undefined {
  if (hanMap === undefined) return undefined;
  for (let i = 0; i < ideographs.length; i++) if (!inMainBlock(ideographs.charCodeAt(i))) return undefined;
  const map = hanMap();
  return map === undefined ? undefined : rewriteHan(text, map);
}

/** {@link unitFlags}: the code unit may be (part of) an ideograph, or of a character with an ideograph's weight. */
export const UNIT_IDEOGRAPHIC = 1;
/** {@link unitFlags}: the code unit may be (part of) a decimal digit other than ASCII. */
export const UNIT_DIGIT = 2;
/** {@link unitFlags}: the code unit is whitespace, or a character that decomposes to some. */
export const UNIT_SPACE = 4;

let flagTable: Uint8Array | undefined;

/**
 * Per UTF-16 code unit, what could make {@link intlView} change a string: a string none of whose
 * units has a flag the document cares about (UNIT_DIGIT under numericOrdering, UNIT_SPACE under
 * maxVariable space) has itself as its view, is not refused, and holds an ideograph only if a
 * unit has UNIT_IDEOGRAPHIC. Surrogates carry UNIT_IDEOGRAPHIC and UNIT_DIGIT (supplementary
 * ideographs and digits exist); supplementary characters hold no whitespace nor decompose to any.
 * Made from the same patterns as the view on first use.
 */
export function unitFlags(): Uint8Array {
  if (flagTable !== undefined) return flagTable;
  const table = new Uint8Array(0x10000);
  const ideographic = new RegExp(IDEOGRAPHIC.source, 'u');
  const whitespace = /\p{White_Space}/u;
  for (let unit = 0; unit <= 0xffff; unit++) {
    if (unit >= 0xd800 && unit <= 0xdfff) {
      table[unit] = UNIT_IDEOGRAPHIC | UNIT_DIGIT;
      continue;
    }
    const ch = String.fromCharCode(unit);
    table[unit] = (ideographic.test(ch) ? UNIT_IDEOGRAPHIC : 0) | (NON_ASCII_DIGIT.test(ch) ? UNIT_DIGIT : 0) | (whitespace.test(ch) || DECOMPOSES_TO_WHITESPACE.test(ch) ? UNIT_SPACE : 0);
  }
  return (flagTable = table);
}

/** The flags (unitFlags) of every code unit of `s`, or-ed together. */
export function flagsOf(s: string, table: Uint8Array): number {
  let flags = 0;
  for (let i = 0; i < s.length; i++) flags |= table[s.charCodeAt(i)] ?? 0;
  return flags;
}
