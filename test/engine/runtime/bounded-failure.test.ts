import { describe, expect, it } from 'vitest';
import { KEPT_MESSAGE_CHARS, boundedFinding } from '../../../src/engine/runtime/bounded-failure.js';
import { CUT_MARK } from '../../../src/targets/text-cut.js';

describe('boundedFinding', () => {
  it('returns a finding within every bound as it is', () => {
    const f = { requirement: 'R', message: 'got 2', expected: 1, actual: 2, exchange: { kind: 'http' as const, summary: 'GET / -> 200', response: { body: 'ok' } } };
    expect(boundedFinding(f)).toBe(f);
  });

  it('cuts a message quoting a whole answer, and the values, leaving the original untouched', () => {
    const body = 'a'.repeat(5_000_000);
    const f = { message: `the name came back as ${JSON.stringify(body)}`, actual: body, exchange: { kind: 'note' as const, summary: 'n', response: { body } } };
    const b = boundedFinding(f);
    expect(b.message.length).toBeLessThan(KEPT_MESSAGE_CHARS + 40);
    expect(b.message).toContain(`${CUT_MARK} (`);
    expect(String(b.actual).length).toBeLessThan(5000);
    expect(JSON.stringify(b.exchange).length).toBeLessThan(5000);
    expect(f.actual).toBe(body);
  });
});
