/**
 * French secondary order ("backwards") where neither engine can give it: Node's Intl and ICU4X
 * only use the locale's own direction (backwards for fr_CA, forwards for every other locale).
 * The same layer also gives forwards secondary order for fr_CA when a document sets
 * `backwards: false`.
 *
 * ICU compares level by level: primary weights of the whole strings, then secondary weights, then
 * case level, tertiary, quaternary, identical. With backwards on, the secondary weights are read
 * from the end of the string. So:
 *
 * 1. Compare at primary strength only (no caseLevel). A difference there decides.
 * 2. Split both strings into grapheme clusters (a base letter with its combining accents), drop the
 *    clusters that are ignorable at primary level (they carry no secondary weight that could align
 *    with the other string: controls, and variable characters under alternate=shifted), and
 *    compare the remaining cluster pairs at secondary strength from the wanted end. The first
 *    difference decides.
 * 3. Otherwise the two secondary sequences are equal, which does not depend on direction, so the
 *    engine's own full comparison gives the remaining levels.
 *
 * Not exact, by construction:
 * - when the clusters do not pair up one to one at primary level (an expansion such as 'æ' against
 *   'ae', a contraction such as Spanish traditional 'ch', Hangul syllables against jamo), the layer
 *   falls back to the engine's own secondary direction;
 * - inside one cluster with several secondary weights (a letter with two accents, or one
 *   precomposed character that expands to several collation elements) the engine's direction is
 *   used, not the wanted one;
 * - an ignorable cluster that nevertheless carries a secondary weight is not ordered with the rest.
 */
export interface SecondaryDirectionParts {
  /** Primary strength only, same locale, alternate and numeric settings. */
  readonly primary: (a: string, b: string) => number;
  /** Secondary strength only (no caseLevel), used on single clusters. */
  readonly secondary: (a: string, b: string) => number;
  /** The document's full comparison in the engine's own secondary direction. */
  readonly full: (a: string, b: string) => number;
  /** True to read secondary weights from the end of the strings. */
  readonly backwards: boolean;
}

const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });

function clusters(s: string, primary: (a: string, b: string) => number): string[] {
  const out: string[] = [];
  for (const { segment } of segmenter.segment(s)) {
    if (primary(segment, '') !== 0) out.push(segment);
  }
  return out;
}

export function makeSecondaryDirectionCompare(parts: SecondaryDirectionParts): (a: string, b: string) => number {
  const { primary, secondary, full, backwards } = parts;
  return (a, b) => {
    const p = primary(a, b);
    if (p !== 0) return p;
    const ca = clusters(a, primary);
    const cb = clusters(b, primary);
    if (ca.length === cb.length) {
      let aligned = true;
      for (let i = 0; i < ca.length; i++) {
        if (primary(ca[i] ?? '', cb[i] ?? '') !== 0) {
          aligned = false;
          break;
        }
      }
      if (aligned) {
        const n = ca.length;
        for (let k = 0; k < n; k++) {
          const i = backwards ? n - 1 - k : k;
          const s = secondary(ca[i] ?? '', cb[i] ?? '');
          if (s !== 0) return s;
        }
      }
    }
    return full(a, b);
  };
}
