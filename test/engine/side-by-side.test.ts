import { describe, expect, it } from 'vitest';
import type { CaseDef } from '../../src/engine/model.js';
import { sideBySide } from '../../src/engine/side-by-side.js';
import type { TargetChoice } from '../../src/engine/target-setup.js';

const plainCase = (id: string, tags?: string[]): CaseDef => ({ id, requirements: ['R'], steps: [], location: { file: 'f', line: 1, column: 1 }, ...(tags ? { tags } : {}) });
const suites = (...names: string[]): { suite: { name: string }; cases: CaseDef[] }[] => names.map((name) => ({ suite: { name }, cases: [plainCase(`${name}-1`)] }));
const hooked: TargetChoice = { section: { vars: {}, clock: { advance: { method: 'POST', url: 'http://127.0.0.1:9/clock' } } }, label: 'service', secrets: [] };
const plain: TargetChoice = { section: { vars: {} }, label: 'service', secrets: [] };

describe('sideBySide', () => {
  it('keeps every suite in one stretch, in order, when no target has a clock hook', () => {
    expect(sideBySide(suites('a', 'b', 'c'), { b: plain })).toEqual([[0, 1, 2]]);
  });

  it('gives a suite whose target has a clock hook a stretch of its own, between the others', () => {
    expect(sideBySide(suites('a', 'b', 'c', 'd'), { b: hooked, c: hooked })).toEqual([[0], [1], [2], [3]]);
    expect(sideBySide(suites('a', 'b', 'c', 'd'), { a: hooked })).toEqual([[0], [1, 2, 3]]);
  });

  it('runs alone a suite against a named service whose cases touch what every case of that service shares', () => {
    for (const tags of [['exclusive'], ['exclusive:items'], ['time-bound']]) {
      const list = suites('a', 'b', 'c');
      (list[1] as { cases: CaseDef[] }).cases.push(plainCase('b-2', tags));
      // another suite may be pointed at the same service
      expect(sideBySide(list, { b: plain }), tags.join()).toEqual([[0], [1], [2]]);
      // the embedded reference is reached by no other suite
      expect(sideBySide(list, {}), tags.join()).toEqual([[0, 1, 2]]);
    }
  });
});
