import { describe, expect, it } from 'vitest';
import { sideBySide } from '../../src/engine/side-by-side.js';
import type { TargetChoice } from '../../src/engine/target-setup.js';

const suites = (...names: string[]): { suite: { name: string } }[] => names.map((name) => ({ suite: { name } }));
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
});
