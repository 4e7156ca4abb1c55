/**
 * The strings the differential tests sort: the collation suite's own generated strings, plus
 * the characters the tested locales tailor and the text ICU treats specially. Every character
 * was assigned in Unicode 15 or earlier: PyICU and PostgreSQL run on ICU 72 (Unicode 15), and a
 * character one side has never heard of would only show the age of its data.
 */
import fc from 'fast-check';
import { collationString, longDigitRun } from '../../../../generators/collation/collation-string.js';

const pick = (chars: readonly string[]): fc.Arbitrary<string> => fc.constantFrom(...chars);

/** Letters the tested locales tailor (da/sv å ä ö æ ø and aa, de ä ö ü, tr ı İ, fr œ, ch). */
const TAILORED = ['aa', 'Aa', 'AA', 'å', 'Å', 'æ', 'ø', 'ä', 'ö', 'ü', 'ue', 'oe', 'ss', 'ß', 'ı', 'İ', 'i', 'I', 'ch', 'Ch', 'll', 'ñ', 'œ', 'w', 'v', 'y', 'þ', 'ð'];
/**
 * Marks in a non-canonical order (dot below, ccc 220, after acute, ccc 230), and the canonical
 * order: the text "normalization" (kk) decides about; decomposed Hangul (conjoining jamo).
 */
const SPECIAL = ['a\u0301\u0323', 'a\u0323\u0301', 'e\u0301', '\u00e9', 'o\u0308\u0304', '\u022b', '\u1100\u1161', '\u1100\u1161\u11a8', '\u3131', 'ｶﾞ', 'ガ', 'か\u3099', 'ゝ', 'ー'];
/** Thai and Lao prevowels (reordered by the collation), Thai letters and tone marks. */
const THAI = ['เก', 'แก', 'ก', 'ข', 'ค', 'กา', 'ก่', 'ก้', 'ไ', 'ๆ', 'ฯ'];
/** Supplementary-plane text: Nd mathematical digits, a CJK extension B ideograph, an emoji, Kawi digits (Unicode 15). */
const ASTRAL = ['\u{1D7CE}', '\u{1D7CF}', '\u{1D7D7}', '\u{20000}', '\u{2A6D6}', '\u{1F600}', '\u{11F50}', '\u{11F51}', '\u{11F59}'];
/** Hanzi whose pinyin and radical-stroke orders differ (zh vs zh@collation=unihan), and kanji. */
const HAN = ['一', '乙', '人', '儿', '刀', '啊', '阿', '爱', '吧', '八', '中', '重', '长', '行', '日', '本', '語'];
const NUMBERS = ['-1', '+1', '-2', '1.5', '1,5', '10', '2', '02', '002', '1e3', '0.5', ' 1', '1 ', '١٠', '١٢'];

const extra = fc.oneof(pick(TAILORED), pick(SPECIAL), pick(THAI), pick(ASTRAL), pick(HAN), pick(NUMBERS));

/** One string: the suite's generated text, the extras above, or both joined, sometimes with a case change. */
export const differentialString: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: collationString(5) },
    { weight: 3, arbitrary: fc.array(extra, { minLength: 1, maxLength: 4 }).map((p) => p.join('')) },
    { weight: 2, arbitrary: fc.tuple(collationString(3), extra).map(([a, b]) => a + b) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', 'a', 'x'), longDigitRun, fc.constantFrom('', 'b', '1')).map(([a, d, b]) => a + d + b) },
  )
  .chain((s) => fc.constantFrom(s, s.toUpperCase(), s.toLowerCase()));

/** The seed of every sample: fixed, so a difference seen once is seen again. SG_COLLATION_SEED overrides it. */
export const SEED = Number(process.env['SG_COLLATION_SEED'] ?? 20_240_601);

/** `count` distinct strings (PostgreSQL cannot hold U+0000; none are generated). */
export function sampleStrings(count: number, seed = SEED): string[] {
  const out = new Set<string>();
  let round = 0;
  while (out.size < count && round < 10) {
    for (const s of fc.sample(differentialString, { numRuns: count, seed: seed + round })) if (!s.includes('\u0000')) out.add(s);
    round++;
  }
  return [...out].slice(0, count);
}
