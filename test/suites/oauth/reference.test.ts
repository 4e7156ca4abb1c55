import { describe, expect, it } from 'vitest';
import { loadSuites } from '../../../src/engine/run.js';
import { suite } from '../../../suites/oauth/index.js';
import { erroredCases, failedRequirements, isBrowserCase, runOAuth } from './run-target.js';

/** Requirements only the browser cases judge (they run apart, in browser.test.ts). */
function browserOnly(): string[] {
  const cases = loadSuites([suite], ['oauth']).suites[0]?.cases ?? [];
  const elsewhere = new Set(cases.filter((c) => !isBrowserCase(c)).flatMap((c) => c.requirements));
  return [...new Set(cases.filter(isBrowserCase).flatMap((c) => c.requirements))].filter((id) => !elsewhere.has(id));
}

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

  it('leaves only client-side requirements and those of the browser cases untested', async () => {
    const r = await runOAuth({ seed: 5 });
    const browser = browserOnly();
    expect(browser.length).toBeGreaterThan(0);
    const untested = r.requirements.filter((v) => v.status === 'untested').map((v) => v.id);
    expect(untested.filter((id) => !id.startsWith('OAUTH-CLIENT-') && !browser.includes(id))).toEqual([]);
  });
});
