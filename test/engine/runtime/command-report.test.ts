/** How a command's exchange is kept in a report: long lists cut with a count, strings masked then cut. */
import { describe, expect, it } from 'vitest';
import { REPORT_DOCUMENTS, bounded } from '../../../src/engine/runtime/command-step.js';

describe('a command exchange in a report', () => {
  it('keeps the first documents of a long batch and says how many more there were', () => {
    const reply = { ok: 1, cursor: { firstBatch: Array.from({ length: 50 }, (_, i) => ({ i })) } };
    const kept = bounded(reply, (t) => t) as { cursor: { firstBatch: unknown[] } };
    expect(kept.cursor.firstBatch).toHaveLength(REPORT_DOCUMENTS + 1);
    expect(kept.cursor.firstBatch[0]).toEqual({ i: 0 });
    expect(kept.cursor.firstBatch[REPORT_DOCUMENTS]).toBe(`… ${50 - REPORT_DOCUMENTS} more not shown`);
    // the reply itself is untouched: only the report's copy is cut
    expect(reply.cursor.firstBatch).toHaveLength(50);
  });

  it('leaves short lists and plain values as they are', () => {
    const doc = { insert: 'names', documents: [{ name: 'Ada', n: 9007199254740993n, bytes: new Uint8Array([1]) }], ordered: true, note: null };
    expect(bounded(doc, (t) => t)).toEqual(doc);
  });

  it('masks secrets in strings before cutting them, so no piece of one survives the cut', () => {
    const secret = 'sekret-token-123';
    const long = `${'x'.repeat(1990)}${secret}${'y'.repeat(100)}`;
    const kept = bounded({ filter: { token: long } }, (t) => t.split(secret).join('***')) as { filter: { token: string } };
    expect(kept.filter.token).not.toContain('sekret');
    expect(kept.filter.token).toContain('***');
    expect(kept.filter.token.length).toBeLessThan(long.length);
  });
});
