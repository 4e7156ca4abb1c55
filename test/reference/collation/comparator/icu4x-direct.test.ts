import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collationString } from '../../../../generators/collation/collation-string.js';
import { prepareComparator } from '../../../../reference/collation/comparator/index.js';
import { directCompare } from '../../../../reference/collation/comparator/icu4x-direct.js';

// loads ICU4X and, with it, the module's exports the direct path calls
await prepareComparator();
const icu = await import('icu');

function collator(strength: InstanceType<typeof icu.CollatorStrength>): InstanceType<typeof icu.Collator> {
  return new icu.Collator(icu.Locale.fromString('en-u-kf-false-kn-false'), {
    strength,
    alternateHandling: icu.CollatorAlternateHandling.NonIgnorable,
    maxVariable: icu.CollatorMaxVariable.Punctuation,
    caseLevel: icu.CollatorCaseLevel.Off,
  });
}

describe('ICU4X compared through the module’s exports', () => {
  it('does not go through the binding’s compare', () => {
    const c = collator(icu.CollatorStrength.Identical);
    let bindingCalls = 0;
    const compare = directCompare(c.ffiValue, (a, b) => (bindingCalls++, c.compare(a, b)));
    const checked = bindingCalls;
    for (const [a, b] of fc.sample(fc.tuple(collationString(4), collationString(4)), { numRuns: 500, seed: 3 })) compare(a, b);
    expect(bindingCalls).toBe(checked);
  });

  it('answers as the binding does, long strings and lone surrogates included', () => {
    const c = collator(icu.CollatorStrength.Quaternary);
    const own = (a: string, b: string): number => c.compare(a, b);
    const compare = directCompare(c.ffiValue, own);
    const text = fc.oneof(collationString(6), fc.string({ unit: 'binary', maxLength: 8 }), collationString(6).map((s) => s.repeat(60)));
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(compare(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(own(a, b));
      }),
      { numRuns: 2000, seed: 20260914 },
    );
  });
});
