/**
 * Han ideographs of the main CJK Unified Ideographs block (U+4E00..U+9FFF) rewritten so that
 * Node's Intl orders them as ICU4X does (intl-view.ts uses it; intl-first.ts asks for it).
 *
 * ICU4X orders the ideographs by the UCA's implicit weights, which within the main block is code
 * point order; Node's ICU orders them by radical and stroke. Both give every ideograph of the
 * block a primary weight of its own, so the two orders are two permutations of the same block:
 * the ideograph ICU4X ranks k-th is replaced by the one Intl ranks k-th, and Intl then orders the
 * rewritten strings as ICU4X orders the originals. Plain ideographs carry common secondary and
 * tertiary weights, so nothing else about a string changes, provided the block also sits at the
 * same place among the other characters in both engines: the map is made only when the block's
 * first and last ideographs (ICU4X's, and Intl's as rewritten) fall on the same side of each of
 * a fixed set of characters around it (PLACEMENT_SENTINELS) in both engines. A test
 * (han-order.test.ts) checks the placement against every other BMP character for `en`.
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
 * Characters of the scripts and kinds that sit around the block in the root collation order, or
 * that a locale may move before or after it, and that may stand next to a rewritten ideograph in
 * a string Intl compares: a Latin letter, a digit, punctuation, a symbol, a Greek and a Cyrillic
 * letter, hiragana, katakana, a Hangul syllable, and a compatibility ideograph (U+F900, which
 * decomposes into the block). The ideographs of Extensions A and B are not among them: ICU4X puts
 * them after the whole block (implicit weights) while Node's ICU files them among it by radical
 * and stroke, for every locale, and a string holding one is never rewritten (intl-view.ts), so a
 * pair with one goes to ICU4X (intl-first.test.ts, intl-view.test.ts).
 */
export const PLACEMENT_SENTINELS: readonly string[] = ['a', '7', '!', '\u20AC', '\u03B1', '\u0436', '\u3042', '\u30A2', '\uAC00', '\uF900'];

/** Extension A's and Extension B's first ideographs: placed differently by the two engines, so kept out of PLACEMENT_SENTINELS. */
export const OTHER_BLOCK_IDEOGRAPHS: readonly string[] = ['\u3400', '\u{20000}'];

/**
 * Whether Intl, given the block rewritten by `map`, places it among PLACEMENT_SENTINELS as ICU4X
 * places the original block: the rewritten first and last ideographs against each sentinel in
 * Intl, ICU4X's first and last (U+4E00, U+9FFF) against it in ICU4X, the same sign each time.
 * Every ideograph of the block lies between the first and the last in both engines (the map's
 * orders are strict), so the whole block is on the same side of a sentinel where both ends are.
 */
export function blockPlacedAlike(map: Uint16Array, icu4x: (a: string, b: string) => number, intl: (a: string, b: string) => number): boolean {
  const ends: [string, string][] = [
    [String.fromCharCode(map[0] ?? MAIN_BLOCK_FIRST), String.fromCharCode(MAIN_BLOCK_FIRST)],
    [String.fromCharCode(map[map.length - 1] ?? MAIN_BLOCK_LAST), String.fromCharCode(MAIN_BLOCK_LAST)],
  ];
  for (const sentinel of PLACEMENT_SENTINELS)
    for (const [rewritten, original] of ends) if (Math.sign(intl(rewritten, sentinel)) !== Math.sign(icu4x(original, sentinel))) return false;
  return true;
}

/**
 * For each ideograph of the main block (indexed from U+4E00), the ideograph Intl ranks where
 * ICU4X ranks it; undefined when either engine does not order the whole block strictly at
 * primary strength (then no such map exists), or when the engines place the block differently
 * among the other characters (blockPlacedAlike).
 *
 * `icu4xPrimary` and `intlPrimary` compare at primary strength under the same locale: where a
 * sentinel and an end of the block differ, they differ at the primary level, so the placement
 * found there holds at every strength Intl is asked for.
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
  return blockPlacedAlike(map, icu4xPrimary, intlPrimary) ? map : undefined;
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
