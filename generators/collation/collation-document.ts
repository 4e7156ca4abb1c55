import fc from 'fast-check';

/**
 * Collation documents (spec 001, F, "Collation document"). The values the document leaves
 * unshown (strength 1..5, caseFirst upper/lower/off, alternate non-ignorable/shifted, maxVariable
 * punct/space) are ICU's collation attributes; `normalization` names the ninth flag, as the
 * suite's README says.
 */

/** Locales with tailorings that change results, and their variants. */
export const LOCALES = ['en', 'fr', 'fr_CA', 'de', 'de@collation=phonebook', 'da', 'sv', 'es', 'tr', 'th', 'ja', 'zh', 'zh@collation=unihan'] as const;

/** A valid collation document: a locale and any subset of the optional fields. */
export function validCollationDocument(locales: readonly string[] = LOCALES): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      locale: fc.constantFrom(...locales),
      strength: fc.integer({ min: 1, max: 5 }),
      caseLevel: fc.boolean(),
      caseFirst: fc.constantFrom('upper', 'lower', 'off'),
      numericOrdering: fc.boolean(),
      alternate: fc.constantFrom('non-ignorable', 'shifted'),
      maxVariable: fc.constantFrom('punct', 'space'),
      backwards: fc.boolean(),
      normalization: fc.boolean(),
    },
    { requiredKeys: ['locale'] },
  );
}

/** How an invalid document is broken, so a refusal can be told apart from a refusal for another reason. */
export type InvalidReason = 'no-locale' | 'locale-type' | 'unknown-field' | 'strength-range' | 'strength-type' | 'case-first' | 'alternate' | 'max-variable' | 'boolean-type' | 'unknown-locale';

/** An invalid collation document with the one reason it is invalid; everything else in it is valid. */
export function invalidCollationDocument(): fc.Arbitrary<{ document: Record<string, unknown>; reason: InvalidReason }> {
  const base = validCollationDocument(['en', 'fr', 'de']);
  const breakers: fc.Arbitrary<{ change: (d: Record<string, unknown>) => Record<string, unknown>; reason: InvalidReason }>[] = [
    fc.constant({ reason: 'no-locale' as const, change: ({ locale: _drop, ...rest }) => rest }),
    fc.constantFrom(7, true, null, ['en']).map((v) => ({ reason: 'locale-type' as const, change: (d: Record<string, unknown>) => ({ ...d, locale: v }) })),
    fc.constantFrom('strenght', 'Strength', 'numeric', 'ignoreCase').map((k) => ({ reason: 'unknown-field' as const, change: (d: Record<string, unknown>) => ({ ...d, [k]: 1 }) })),
    fc.constantFrom(0, 6, -1, 100).map((v) => ({ reason: 'strength-range' as const, change: (d: Record<string, unknown>) => ({ ...d, strength: v }) })),
    fc.constantFrom('2', true, 2.5).map((v) => ({ reason: 'strength-type' as const, change: (d: Record<string, unknown>) => ({ ...d, strength: v }) })),
    fc.constantFrom('UPPER', 'first', '', 'true').map((v) => ({ reason: 'case-first' as const, change: (d: Record<string, unknown>) => ({ ...d, caseFirst: v }) })),
    fc.constantFrom('ignorable', 'Shifted', 'none').map((v) => ({ reason: 'alternate' as const, change: (d: Record<string, unknown>) => ({ ...d, alternate: v }) })),
    fc.constantFrom('tab', 'Punct', 'all', '').map((v) => ({ reason: 'max-variable' as const, change: (d: Record<string, unknown>) => ({ ...d, maxVariable: v }) })),
    fc
      .tuple(fc.constantFrom('caseLevel', 'numericOrdering', 'backwards', 'normalization'), fc.constantFrom('true', 1, 'yes'))
      .map(([k, v]) => ({ reason: 'boolean-type' as const, change: (d: Record<string, unknown>) => ({ ...d, [k]: v }) })),
    fc.constantFrom('xx_NOPE', 'klingon', 'qq').map((v) => ({ reason: 'unknown-locale' as const, change: (d: Record<string, unknown>) => ({ ...d, locale: v }) })),
  ];
  return fc.tuple(base, fc.oneof(...breakers)).map(([d, b]) => ({ document: b.change(d), reason: b.reason }));
}
