import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../fixtures/oauth/faults/faults.js';
import { erroredCases, failedRequirements, runOAuth } from './run-target.js';

/**
 * Every planted fault is caught by its requirement, and by nothing else except the
 * requirements its fault definition lists as depending on the broken step.
 */
describe('planted faults in the reference platform', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`${name}: ${fault.description} -> ${fault.requirement}`, async () => {
      const r = await runOAuth({ fault });
      const failed = failedRequirements(r);
      expect(failed).toContain(fault.requirement);
      if (fault.cascade?.includes('*')) return;
      expect(failed.filter((id) => id !== fault.requirement && !fault.cascade?.includes(id))).toEqual([]);
      expect(erroredCases(r)).toEqual([]);
    });
  }

  it('has a fault for every MUST requirement the server-side cases cover', async () => {
    const r = await runOAuth({ cases: ['device-code-is-forty-characters'] });
    const mustServer = r.requirements.filter((v) => v.level === 'MUST' && v.status !== 'excluded' && !v.id.startsWith('OAUTH-CLIENT-')).map((v) => v.id);
    const planted = new Set(Object.values(FAULTS).map((f) => f.requirement));
    expect(mustServer.filter((id) => !planted.has(id))).toEqual([]);
  });
});
