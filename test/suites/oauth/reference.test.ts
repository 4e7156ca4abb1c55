import { describe, expect, it } from 'vitest';
import { erroredCases, failedRequirements, runOAuth } from './run-target.js';

describe('oauth suite against the reference platform', () => {
  for (const seed of [1, 77, 4242]) {
    it(`passes every case (seed ${seed}) on the virtual clock`, async () => {
      const started = Date.now();
      const r = await runOAuth({ seed });
      expect(erroredCases(r)).toEqual([]);
      expect(failedRequirements(r)).toEqual([]);
      const outcomes = r.suites.flatMap((s) => s.cases.map((c) => c.outcome));
      expect(outcomes.filter((o) => o !== 'passed')).toEqual([]);
      expect(Date.now() - started).toBeLessThan(60_000);
    });
  }

  it('leaves only client-side requirements untested', async () => {
    const r = await runOAuth({ seed: 5 });
    const untested = r.requirements.filter((v) => v.status === 'untested').map((v) => v.id);
    expect(untested.every((id) => id.startsWith('OAUTH-CLIENT-'))).toBe(true);
  });
});
