import fc from 'fast-check';

/**
 * Strings where collations disagree (spec 001, F: case, accents and similar; numericOrdering's
 * limits): mixed case, accented letters written precomposed and decomposed, stacked combining
 * marks, digits of several Unicode Nd scripts, digit runs around the 254-digit limit, signs and
 * decimal points beside digits, punctuation and spaces, and CJK, Hangul and kana.
 *
 * Every character here was assigned by Unicode 6.0 or earlier, so the strings mean the same to
 * every ICU the harness compares against (Node's, PostgreSQL's and Python's may be years apart).
 */

/** Letters that differ only by case. */
const CASED = 'aAbBcCeEiIoOsSzZ';
/** Precomposed accented letters, and one ligature and one expansion (æ, ß). */
const ACCENTED = 'àÀáâäÄåçÇéÉèêëíîïñÑóôöÖøúüÜýÿæÆßœ';
/** Combining marks: acute, grave, circumflex, tilde, diaeresis, ring above, cedilla, ogonek, dot below. */
const MARKS = '\u0301\u0300\u0302\u0303\u0308\u030A\u0327\u0328\u0323';
/** Zero, one and nine in several Nd scripts: ASCII, Arabic-Indic, extended Arabic-Indic, Devanagari, Bengali, Thai, fullwidth. */
export const ND_DIGITS: readonly (readonly string[])[] = [
  ['0', '1', '2', '9'],
  ['\u0660', '\u0661', '\u0662', '\u0669'],
  ['\u06F0', '\u06F1', '\u06F2', '\u06F9'],
  ['\u0966', '\u0967', '\u0968', '\u096F'],
  ['\u09E6', '\u09E7', '\u09E8', '\u09EF'],
  ['\u0E50', '\u0E51', '\u0E52', '\u0E59'],
  ['\uFF10', '\uFF11', '\uFF12', '\uFF19'],
];
/** Punctuation, symbols and spaces: the characters alternate=shifted and maxVariable decide about. */
const VARIABLE = ' -_.,;:!?\'"()[]/\\&*@#%\u00A0\u2010\u2013';
/** Symbols and currency signs above maxVariable=punct. */
const SYMBOLS = '$€£+<=>|~^`';
/** Han (including characters the unihan ordering places differently), kana and Hangul. */
const CJK = '一丁七万三上下不中乙九也書本木林森日月中国語漢字かきくカキクアあ가나다한글';

const pick = (chars: string): fc.Arbitrary<string> => fc.constantFrom(...Array.from(chars));

/** One letter, possibly followed by combining marks (a decomposed accent, or a stack of two). */
const letterWithMarks = fc
  .tuple(pick(CASED + ACCENTED), fc.array(pick(MARKS), { maxLength: 2 }))
  .map(([base, marks]) => base + marks.join(''));

/** A digit run of 1..6 digits in one script. */
const digitRun = fc
  .tuple(fc.constantFrom(...ND_DIGITS), fc.integer({ min: 1, max: 6 }), fc.nat())
  .map(([digits, length, seed]) => {
    let out = '';
    for (let i = 0; i < length; i++) out += digits[(seed >> (i * 2)) & 3] ?? digits[0];
    return out;
  });

/** A number written with a sign, a decimal point or an exponent: not numeric to numericOrdering. */
const signedOrDecimal = fc
  .tuple(fc.constantFrom('-', '+', ''), fc.integer({ min: 0, max: 999 }), fc.constantFrom('', '.5', '.05', 'e3', ',5'))
  .map(([sign, n, tail]) => `${sign}${n}${tail}`);

/** A run of 250..258 digits: around the 254-digit limit past which the excess is a separate number. */
export const longDigitRun = fc
  .tuple(fc.integer({ min: 250, max: 258 }), fc.constantFrom('0', '1', '9'), fc.constantFrom('', '0', '1', '9'))
  .map(([length, fill, last]) => fill.repeat(length - last.length) + last);

const piece = fc.oneof(
  { weight: 5, arbitrary: letterWithMarks },
  { weight: 2, arbitrary: digitRun },
  { weight: 1, arbitrary: signedOrDecimal },
  { weight: 2, arbitrary: pick(VARIABLE) },
  { weight: 1, arbitrary: pick(SYMBOLS) },
  { weight: 1, arbitrary: pick(CJK) },
);

/** A string of up to `maxPieces` pieces (letters with marks, digit runs, numbers, punctuation, CJK). */
export function collationString(maxPieces = 6): fc.Arbitrary<string> {
  return fc.array(piece, { minLength: 1, maxLength: maxPieces }).map((parts) => parts.join(''));
}

/**
 * Pairs that differ in one place (a case change, an accent, a mark, a digit, a punctuation
 * character): the near-ties where one level of a collation decides.
 */
export function nearPair(maxPieces = 5): fc.Arbitrary<[string, string]> {
  return fc
    .tuple(fc.array(piece, { minLength: 1, maxLength: maxPieces }), fc.nat(), piece)
    .map(([parts, at, other]) => {
      const i = at % parts.length;
      const changed = parts.slice();
      changed[i] = other;
      return [parts.join(''), changed.join('')] as [string, string];
    });
}
