import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runProperty } from '../../../src/engine/runtime/property.js';

const signal = new AbortController().signal;

describe('runProperty', () => {
  it('tries the given examples first, then generated inputs', async () => {
    const seen: number[] = [];
    const outcome = await runProperty(fc.integer({ min: 0, max: 9 }), async (v) => (seen.push(v), []), { seed: 1, runs: 3, signal, examples: [1000, 2000] });
    expect(outcome.failed).toBe(false);
    expect(seen.slice(0, 2)).toEqual([1000, 2000]);
    expect(seen.slice(2).every((v) => v >= 0 && v <= 9)).toBe(true);
  });

  it('finds an edge the generated inputs alone miss, when it is an example', async () => {
    const edge = async (v: number) => (v === 123_456 ? [{ requirement: 'X', message: `broke at ${v}` }] : []);
    const without = await runProperty(fc.integer({ min: 0, max: 1_000_000 }), edge, { seed: 7, runs: 5, signal });
    const withEdge = await runProperty(fc.integer({ min: 0, max: 1_000_000 }), edge, { seed: 7, runs: 5, signal, examples: [123_456] });
    expect(without.failed).toBe(false);
    expect(withEdge.failed).toBe(true);
    expect(withEdge.counterexample).toBe(123_456);
  });
});
