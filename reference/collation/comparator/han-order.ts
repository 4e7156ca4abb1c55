/**
 * Han ideographs of the main CJK Unified Ideographs block (U+4E00..U+9FFF) rewritten so that
 * Node's Intl orders them as ICU4X does (intl-view.ts uses it; intl-first.ts asks for it).
 *
 * ICU4X orders the ideographs by the UCA's implicit weights, which within the main block is code
 * point order; Node's ICU orders them by radical and stroke. Both give every ideograph of the
 * block a primary weight of its own, so the two orders are two permutations of the same block:
 * the ideograph ICU4X ranks k-th is replaced by the one Intl ranks k-th, and Intl then orders the
 * rewritten strings as ICU4X orders the originals. Plain ideographs carry common secondary and
 * tertiary weights and sit together among the other characters in both engines, so nothing else
 * about a string changes (intl-first.test.ts checks the block against every other BMP character).
 *
 * Nothing is assumed: both orders are checked over the whole block when the map is made, ICU4X's
 * pair by pair in code point order and Intl's after sorting the block, each strictly increasing
 * at primary strength. A locale that tailors the ideographs (zh's pinyin, ja's JIS order, ko's
 * hanja among the Hangul) fails the check and gets no map: its strings are compared as before.
 */

/** The first and last code points of the block the map covers. */
export const MAIN_BLOCK_FIRST = 0x4e00;
export const MAIN_BLOCK_LAST = 0x9fff;

/** Whether a UTF-16 code unit is an ideograph of the main block. */
export function inMainBlock(unit: number): boolean {
  return unit >= MAIN_BLOCK_FIRST && unit <= MAIN_BLOCK_LAST;
}

/**
 * For each ideograph of the main block (indexed from U+4E00), the ideograph Intl ranks where
 * ICU4X ranks it; undefined when either engine does not order the whole block strictly at
 * primary strength (then no such map exists).
 *
 * `icu4xPrimary` and `intlPrimary` compare at primary strength under the same locale.
 */
export function hanOrderMap(icu4xPrimary: (a: string, b: string) => number, intlPrimary: (a: string, b: string) => number): Uint16Array | undefined {
  for (let cp = MAIN_BLOCK_FIRST; cp < MAIN_BLOCK_LAST; cp++) {
    if (icu4xPrimary(String.fromCharCode(cp), String.fromCharCode(cp + 1)) >= 0) return undefined;
  }
  const block: string[] = [];
  for (let cp = MAIN_BLOCK_FIRST; cp <= MAIN_BLOCK_LAST; cp++) block.push(String.fromCharCode(cp));
  block.sort(intlPrimary);
  const map = new Uint16Array(block.length);
  for (let k = 0; k < block.length; k++) {
    const ideograph = block[k] ?? '';
    if (k > 0 && intlPrimary(block[k - 1] ?? '', ideograph) >= 0) return undefined;
    map[k] = ideograph.charCodeAt(0);
  }
  return map;
}

/** `text` with each main-block ideograph replaced through `map` (hanOrderMap). */
export function rewriteHan(text: string, map: Uint16Array): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (!inMainBlock(unit)) continue;
    out += text.slice(from, i) + String.fromCharCode(map[unit - MAIN_BLOCK_FIRST] ?? unit);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
