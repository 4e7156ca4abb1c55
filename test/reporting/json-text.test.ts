import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonParts, REPORT_DEPTH, stringifyJson } from '../../src/reporting/json-text.js';

/** Anything a report may hold: bigint, Map, Set, bytes, dates, holes, lists long enough to be written in parts. */
const reportish = fc.anything({ maxDepth: 5, maxKeys: 80, withBigInt: true, withMap: true, withSet: true, withTypedArray: true, withDate: true, withNullPrototype: true, withSparseArray: true });

describe('jsonParts', () => {
  it('joins to exactly what stringifyJson writes, at every indent and with portable integers', () => {
    fc.assert(
      fc.property(reportish, fc.integer({ min: 0, max: 3 }), fc.boolean(), (value, indent, portableIntegers) => {
        expect([...jsonParts(value, indent, { portableIntegers })].join('')).toBe(stringifyJson(value, indent, { portableIntegers }));
      }),
      { numRuns: 500 },
    );
  });

  it('writes a report-shaped run case by case: each part is small, and their text is the whole', () => {
    const run = {
      summary: { passed: 3000 },
      suites: [{ name: 'bulk', cases: Array.from({ length: 3000 }, (_x, i) => ({ id: `item-${i}`, failures: [], actual: 1n << 70n, skipped: undefined })) }],
    };
    const parts = [...jsonParts(run, 2, { portableIntegers: true })];
    expect(parts.join('')).toBe(stringifyJson(run, 2, { portableIntegers: true }));
    expect(parts.length).toBeGreaterThan(3000);
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThan(300);
  });

  it('marks a value nested past the report depth where it would be marked in one piece', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < REPORT_DEPTH + 5; i++) deep = [deep];
    const run = { cases: Array.from({ length: 100 }, (_x, i) => ({ id: i, actual: deep })) };
    const text = [...jsonParts(run, 2)].join('');
    expect(text).toBe(stringifyJson(run, 2));
    expect(text).toContain(`… nested beyond ${REPORT_DEPTH} levels`);
  });
});
