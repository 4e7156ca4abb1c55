import { describe, expect, it } from 'vitest';
import type { Failure } from '../../../src/engine/model.js';
import { KEPT_FAILURES, keepFailure } from '../../../src/engine/runtime/failure-cap.js';

describe('failures a case keeps per requirement', () => {
  it('keeps the first ones of a requirement and counts the rest in one closing failure', () => {
    const list: Failure[] = [];
    for (let i = 0; i < KEPT_FAILURES + 41; i++) keepFailure(list, { requirement: 'R-A', message: `item ${i}` });
    expect(list).toHaveLength(KEPT_FAILURES + 1);
    expect(list[0]?.message).toBe('item 0');
    expect(list[KEPT_FAILURES - 1]?.message).toBe(`item ${KEPT_FAILURES - 1}`);
    expect(list[KEPT_FAILURES]).toEqual({ requirement: 'R-A', message: `… and 41 more failures of R-A in this case, not kept (a case keeps its first ${KEPT_FAILURES} per requirement)` });
  });

  it('counts each requirement and each list on its own', () => {
    const list: Failure[] = [];
    const other: Failure[] = [];
    for (let i = 0; i < KEPT_FAILURES + 1; i++) keepFailure(list, { requirement: 'R-A', message: 'a' });
    keepFailure(list, { requirement: 'R-B', message: 'b' });
    keepFailure(other, { requirement: 'R-A', message: 'fresh' });
    expect(list.filter((f) => f.requirement === 'R-B')).toEqual([{ requirement: 'R-B', message: 'b' }]);
    expect(list.at(-2)?.message).toBe(`… and 1 more failure of R-A in this case, not kept (a case keeps its first ${KEPT_FAILURES} per requirement)`);
    expect(other).toEqual([{ requirement: 'R-A', message: 'fresh' }]);
  });
});
