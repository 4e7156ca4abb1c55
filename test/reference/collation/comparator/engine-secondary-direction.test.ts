import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collationString } from '../../../../generators/collation/collation-string.js';
import { makeSecondaryDirectionCompare } from '../../../../reference/collation/comparator/engine-secondary-direction.js';

const primaryIntl = new Intl.Collator('en', { sensitivity: 'base' });
const secondaryIntl = new Intl.Collator('en', { sensitivity: 'accent' });
const fullIntl = new Intl.Collator('en');

/** The layer for en with backwards on, counting what it asks of its parts. */
function layer(generation?: number): { compare: (a: string, b: string) => number; calls: { ignorable: number } } {
  const calls = { ignorable: 0 };
  const primary = (a: string, b: string): number => {
    if (b === '') calls.ignorable++;
    return primaryIntl.compare(a, b);
  };
  const compare = makeSecondaryDirectionCompare({ primary, secondary: secondaryIntl.compare, full: fullIntl.compare, backwards: true, ...(generation === undefined ? {} : { memoGeneration: generation }) });
  return { compare, calls };
}

describe('the secondary-direction layer', () => {
  it('splits each string into clusters once per sort, not once per comparison', () => {
    const strings = fc.sample(collationString(6), { numRuns: 3000, seed: 17 });
    const { compare, calls } = layer();
    strings.slice().sort(compare);
    const clusters = new Set(strings).size * 6 * 3; // at most 6 pieces of at most 3 clusters each
    const afterOne = calls.ignorable;
    expect(afterOne).toBeLessThanOrEqual(clusters);
    strings.slice().sort(compare);
    expect(calls.ignorable).toBe(afterOne);
  });

  it('answers the same with a memo too small to keep anything for long', () => {
    const big = layer().compare;
    const small = layer(2).compare;
    fc.assert(
      fc.property(fc.array(collationString(4), { maxLength: 16 }), (strings) => {
        for (const a of strings) for (const b of strings) expect(Math.sign(small(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(Math.sign(big(a, b)));
      }),
      { numRuns: 80, seed: 20260914 },
    );
  });

  it('reads accents from the end: cote < côte < coté < côté', () => {
    const { compare } = layer();
    expect(['côté', 'coté', 'côte', 'cote'].sort(compare)).toEqual(['cote', 'côte', 'coté', 'côté']);
  });
});
