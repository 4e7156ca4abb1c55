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
import { BoundedStringMemo } from './bounded-string-memo.js';

export interface SecondaryDirectionParts {
  /** Primary strength only, same locale, alternate and numeric settings. */
  readonly primary: (a: string, b: string) => number;
  /** Secondary strength only (no caseLevel), used on single clusters. */
  readonly secondary: (a: string, b: string) => number;
  /** The document's full comparison in the engine's own secondary direction. */
  readonly full: (a: string, b: string) => number;
  /** True to read secondary weights from the end of the strings. */
  readonly backwards: boolean;
  /** Entries per generation of the per-string memos (tests make it small). */
  readonly memoGeneration?: number;
}

/** Entries per generation of the per-string memo of clusters (bounded-string-memo.ts). */
const MEMO_GENERATION = 65_536;
/** Strings longer than this are not remembered. */
const MEMO_MAX_KEY_LENGTH = 1_024;

/** Made on first use: the comparator is imported at every start of the command line. */
let segmenter: Intl.Segmenter | undefined;

function clusters(s: string, primary: (a: string, b: string) => number): readonly string[] {
  const out: string[] = [];
  for (const { segment } of (segmenter ??= new Intl.Segmenter('und', { granularity: 'grapheme' })).segment(s)) {
    if (primary(segment, '') !== 0) out.push(segment);
  }
  return out;
}

/**
 * A sort compares each string about log2(n) times, and most comparisons that reach this layer's
 * own work involve strings it has seen: a string's clusters, and a cluster's marks, are derived
 * once and remembered (bounded memos), so a comparison costs only the comparisons of its parts.
 */
export function makeSecondaryDirectionCompare(parts: SecondaryDirectionParts): (a: string, b: string) => number {
  const { primary, secondary, full, backwards } = parts;
  const sizes = { generation: parts.memoGeneration ?? MEMO_GENERATION, maxKeyLength: MEMO_MAX_KEY_LENGTH };
  const clustersOf = new BoundedStringMemo((s) => clusters(s, primary), sizes);
  const weighsSomething = new BoundedStringMemo((mark) => secondary(`${CARRIER}${mark}`, CARRIER) !== 0, { ...sizes, maxKeyLength: 2 });
  const marksOf = new BoundedStringMemo((cluster) => baseAndMarks(cluster, (m) => weighsSomething.get(m)), { ...sizes, maxKeyLength: 64 });
  return (a, b) => {
    if (a === b) return 0;
    const p = primary(a, b);
    if (p !== 0) return p;
    const ca = clustersOf.get(a);
    const cb = clustersOf.get(b);
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
          const x = ca[i] ?? '';
          const y = cb[i] ?? '';
          const s = backwards ? clusterBackwards(x, y, marksOf.get(x), marksOf.get(y), secondary) : secondary(x, y);
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

/** A cluster in canonical decomposition as one base character and its weighed marks. */
interface BaseAndMarks {
  readonly base: string;
  /** Each mark with a secondary weight, on the carrier, last mark first. */
  readonly marks: readonly string[];
}

/** The cluster's base and marks, or undefined when its decomposition is not one base plus marks. */
function baseAndMarks(cluster: string, weighsSomething: (mark: string) => boolean): BaseAndMarks | undefined {
  const [base, ...marks] = Array.from(cluster.normalize('NFD'));
  if (base === undefined || MARK.test(base) || !marks.every((m) => MARK.test(m))) return undefined;
  return { base, marks: marks.filter(weighsSomething).reverse().map((m) => `${CARRIER}${m}`) };
}

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
function clusterBackwards(x: string, y: string, mx: BaseAndMarks | undefined, my: BaseAndMarks | undefined, secondary: (a: string, b: string) => number): number {
  if (mx === undefined || my === undefined) return secondary(x, y);
  for (let i = 0; ; i++) {
    const wx = mx.marks[i];
    const wy = my.marks[i];
    if (wx === undefined && wy === undefined) return secondary(mx.base, my.base);
    // the base's common weight is below every accent's
    if (wx === undefined) return -1;
    if (wy === undefined) return 1;
    const s = secondary(wx, wy);
    if (s !== 0) return s;
  }
}
