import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collatorFor, parseCollation } from '../../../../reference/collation/comparator/index.js';
import { makeIcu4xCompare } from '../../../../reference/collation/comparator/engine-icu4x.js';
import { makeIntlCollator } from '../../../../reference/collation/comparator/engine-intl.js';
import type { ResolvedCollation } from '../../../../reference/collation/types.js';
import { prepareComparator } from '../../../../reference/collation/comparator/index.js';

// the comparator's ICU4X engine loads once, before the first comparison
await prepareComparator();

function resolved(doc: object): ResolvedCollation {
  const c = parseCollation(doc);
  if (c === 'simple') throw new Error('expected an ICU collation');
  return c;
}

// Letters with and without accents and case, combining marks, spaces, punctuation, symbols and
// digits of two scripts: enough to exercise every level without touching characters whose
// collation data changed between Node's ICU and ICU4X's CLDR.
const alphabet = [
  'a', 'A', 'b', 'B', 'c', 'e', 'E', 'o', 'z', '\u00e1', '\u00c1', '\u00e9', '\u00f4', '\u00e6', '\u00e5', '\u00f8', '\u00fc', '\u00df',
  '\u0301', '\u0302', ' ', '-', '_', ',', '.', '$', '0', '1', '2', '9', '\u0663', '\u0661',
];
const word = fc.array(fc.constantFrom(...alphabet), { maxLength: 8 }).map((cs) => cs.join(''));

const intlExpressible = [
  { locale: 'en' },
  { locale: 'en', strength: 1 },
  { locale: 'en', strength: 2 },
  { locale: 'en', strength: 1, caseLevel: true },
  { locale: 'en', caseFirst: 'upper' },
  { locale: 'en', caseFirst: 'lower', numericOrdering: true },
  { locale: 'en', alternate: 'shifted' },
  { locale: 'en', alternate: 'shifted', strength: 2, numericOrdering: true },
  { locale: 'da' },
  { locale: 'sv' },
  { locale: 'de@collation=phonebook' },
  { locale: 'fr_CA' },
];

describe('Intl and ICU4X agree where Intl can express the document', () => {
  it.each(intlExpressible)('%j', (doc) => {
    const c = resolved(doc);
    const intl = makeIntlCollator(c);
    if (intl === undefined) throw new Error(`Intl cannot express ${JSON.stringify(doc)}`);
    const icu4x = makeIcu4xCompare(c);
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(Math.sign(intl.compare(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(Math.sign(icu4x(a, b)));
      }),
      { numRuns: 400, seed: 20240601 },
    );
  });
});

describe('the backwards layer agrees with the engines where the engines know the answer', () => {
  it('fr_CA (engine backwards) equals fr with backwards set (layer) on generated strings', () => {
    const native = collatorFor({ locale: 'fr_CA' });
    const layered = collatorFor({ locale: 'fr', backwards: true });
    expect(native.engine).toBe('intl');
    expect(layered.engine).toBe('secondary-direction+intl');
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(Math.sign(layered.compare(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(Math.sign(native.compare(a, b)));
      }),
      { numRuns: 1500, seed: 7 },
    );
  });

  it('fr_CA with backwards false equals fr on generated strings', () => {
    const native = collatorFor({ locale: 'fr' });
    const layered = collatorFor({ locale: 'fr_CA', backwards: false });
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(Math.sign(layered.compare(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(Math.sign(native.compare(a, b)));
      }),
      { numRuns: 1500, seed: 11 },
    );
  });
});
