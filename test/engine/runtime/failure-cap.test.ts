import { describe, expect, it } from 'vitest';
import type { Exchange, Failure } from '../../../src/engine/model.js';
import { KEPT_FAILURES, keepFailure } from '../../../src/engine/runtime/failure-cap.js';

const x = (summary: string): Exchange => ({ kind: 'http', summary });

describe('failures a case keeps per requirement', () => {
  it('makes one failure per requirement, listing its failed assertions in order', () => {
    const list: Failure[] = [];
    keepFailure(list, { requirement: 'R-A', message: 'status: expected 200, got 500', expected: 200, actual: 500, exchange: x('GET /a') });
    keepFailure(list, { requirement: 'R-B', message: 'b' });
    keepFailure(list, { requirement: 'R-A', message: 'header etag: expected a value, got none', exchange: x('GET /b') });
    keepFailure(list, { requirement: 'R-A', message: 'id: expected a string, got 4', detail: { schema: 's' } });
    expect(list.map((f) => f.requirement)).toEqual(['R-A', 'R-B']);
    expect(list[0]).toEqual({
      requirement: 'R-A',
      message: '3 failed assertions: 1) status: expected 200, got 500; 2) header etag: expected a value, got none; 3) id: expected a string, got 4',
      assertions: [
        { message: 'status: expected 200, got 500', expected: 200, actual: 500, exchange: x('GET /a') },
        { message: 'header etag: expected a value, got none', exchange: x('GET /b') },
        { message: 'id: expected a string, got 4', detail: { schema: 's' } },
      ],
      exchange: x('GET /a'),
    });
    expect(list[1]).toEqual({ requirement: 'R-B', message: 'b' });
  });

  it('keeps the first assertions of a requirement and counts the rest in its message', () => {
    const list: Failure[] = [];
    for (let i = 0; i < KEPT_FAILURES + 41; i++) keepFailure(list, { requirement: 'R-A', message: `item ${i}` });
    expect(list).toHaveLength(1);
    expect(list[0]?.assertions).toHaveLength(KEPT_FAILURES);
    expect(list[0]?.assertions?.[KEPT_FAILURES - 1]?.message).toBe(`item ${KEPT_FAILURES - 1}`);
    expect(list[0]?.message).toMatch(new RegExp(`^${KEPT_FAILURES} failed assertions: 1\\) item 0; .*; … and 41 more, not kept \\(a case keeps its first ${KEPT_FAILURES} per requirement\\)$`));
  });

  it('counts each requirement and each list on its own', () => {
    const list: Failure[] = [];
    const other: Failure[] = [];
    for (let i = 0; i < KEPT_FAILURES + 1; i++) keepFailure(list, { requirement: 'R-A', message: 'a' });
    keepFailure(list, { requirement: 'R-B', message: 'b' });
    keepFailure(other, { requirement: 'R-A', message: 'fresh' });
    expect(list.filter((f) => f.requirement === 'R-B')).toEqual([{ requirement: 'R-B', message: 'b' }]);
    expect(list[0]?.message).toMatch(/; … and 1 more, not kept/);
    expect(other).toEqual([{ requirement: 'R-A', message: 'fresh' }]);
  });
});
