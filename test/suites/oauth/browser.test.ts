import { describe, expect, it } from 'vitest';
import { CHROMIUM_HINT, findChromium } from '../../../src/targets/browser/find-chromium.js';
import { BROWSER_FAULTS } from '../../fixtures/oauth/faults/faults.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { browserCaseIds, erroredCases, failedRequirements, runOAuth } from './run-target.js';

/**
 * The browser cases (cases/sign-in-pages.yaml): the pages of the authorization endpoint opened
 * in headless Chromium. The reference passes them, and each planted fault of those pages fails
 * exactly its requirement. One browser a run, so the cases run here rather than in every sweep.
 */
const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

describe.skipIf(chromium.skip)('the sign-in page and the account picker, in Chromium', () => {
  const cases = browserCaseIds();

  it('the reference passes every browser case', async () => {
    const r = await runOAuth({ cases });
    expect(erroredCases(r)).toEqual([]);
    const outcomes = r.suites.flatMap((s) => s.cases.map((c) => `${c.id}: ${c.outcome}${c.reason ? ` ${c.reason}` : ''}`));
    expect(outcomes).toEqual(cases.map((id) => `${id}: passed`));
    expect(failedRequirements(r)).toEqual([]);
  }, 60_000);

  for (const [name, fault] of Object.entries(BROWSER_FAULTS)) {
    it(`${name}: ${fault.description} -> ${fault.requirement}`, async () => {
      const r = await runOAuth({ fault, cases });
      expect(failedRequirements(r)).toEqual([fault.requirement]);
      expect(erroredCases(r)).toEqual([]);
      expect(r.requirements.find((v) => v.id === fault.requirement)?.failures[0]?.message).toBeTruthy();
    }, 60_000);
  }
});
