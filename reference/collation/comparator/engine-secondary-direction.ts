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
 * - inside one cluster, the accents are read from the end too (see clusterBackwards), but only
 *   where the cluster decomposes into one base character and combining marks; a precomposed
 *   character that expands to several collation elements keeps the engine's direction;
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

/** Made on first use: the comparator is imported at every start of the command line. */
let segmenter: Intl.Segmenter | undefined;

function clusters(s: string, primary: (a: string, b: string) => number): string[] {
  const out: string[] = [];
  for (const { segment } of (segmenter ??= new Intl.Segmenter('und', { granularity: 'grapheme' })).segment(s)) {
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
          const s = backwards ? clusterBackwards(ca[i] ?? '', cb[i] ?? '', secondary) : secondary(ca[i] ?? '', cb[i] ?? '');
          if (s !== 0) return s;
        }
      }
    }
    return full(a, b);
  };
}

/** What a mark is weighed on: a symbol no locale tailors together with a mark. */
const CARRIER = '\u25CC';

/** A combining mark (general category M): it carries no primary weight of its own in a cluster. */
const MARK = /^\p{M}$/u;

/**
 * Two primary-equal clusters compared with their secondary weights read from the end. A cluster
 * in canonical decomposition is a base character followed by combining marks; its secondary
 * weights are the base's (the common weight, the lowest) and then one per mark, so read
 * backwards the marks come first, last mark first, and the base last. Each mark is weighed on its
 * own on the same carrier (U+25CC DOTTED CIRCLE + mark), which gives its secondary weight's order
 * (a letter would not do: `a` + ring is a letter of its own in Danish and Swedish); a mark with
 * no secondary weight (U+034F, say) is left out, as ICU leaves it out. A cluster whose
 * decomposition is not one base plus marks is compared by the engine, forwards.
 */
function clusterBackwards(x: string, y: string, secondary: (a: string, b: string) => number): number {
  const dx = Array.from(x.normalize('NFD'));
  const dy = Array.from(y.normalize('NFD'));
  const marksX = dx.slice(1);
  const marksY = dy.slice(1);
  if (!marksX.every((m) => MARK.test(m)) || !marksY.every((m) => MARK.test(m)) || dx[0] === undefined || dy[0] === undefined || MARK.test(dx[0]) || MARK.test(dy[0]))
    return secondary(x, y);
  const weighed = (marks: string[]): string[] => marks.filter((m) => secondary(`${CARRIER}${m}`, CARRIER) !== 0).reverse();
  const rx = weighed(marksX);
  const ry = weighed(marksY);
  for (let i = 0; ; i++) {
    const mx = rx[i];
    const my = ry[i];
    if (mx === undefined && my === undefined) return secondary(dx[0], dy[0]);
    // the base's common weight is below every accent's
    if (mx === undefined) return -1;
    if (my === undefined) return 1;
    const s = secondary(`${CARRIER}${mx}`, `${CARRIER}${my}`);
    if (s !== 0) return s;
  }
}
