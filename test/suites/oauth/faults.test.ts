import { describe, expect, it } from 'vitest';
import { BROWSER_FAULTS, FAULTS } from '../../fixtures/oauth/faults/faults.js';
import { erroredCases, failedRequirements, runOAuth } from './run-target.js';

/**
 * Every planted fault is caught by exactly its requirement and the requirements its fault
 * definition lists as depending on the broken step (or broken by the same behaviour): each of
 * them fails, nothing else does.
 */
describe('planted faults in the reference platform', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`${name}: ${fault.description} -> ${fault.requirement}`, async () => {
      const r = await runOAuth({ fault });
      const failed = failedRequirements(r);
      expect(failed).toContain(fault.requirement);
      if (fault.cascade?.includes('*')) return;
      expect(failed).toEqual([fault.requirement, ...(fault.cascade ?? [])].sort());
      expect(erroredCases(r)).toEqual([]);
    });
  }

  it('names the advertised expires_in an expiry case relied on when the codes outlive it', async () => {
    const understated = FAULTS['expires-in-understated'];
    if (!understated) throw new Error('the fault expires-in-understated is missing');
    const r = await runOAuth({ fault: understated, cases: ['device-code-expires-after-900-seconds', 'device-user-code-expires-after-900-seconds'] });
    const messages = r.requirements.filter((v) => v.status === 'failed').flatMap((v) => v.failures.map((f) => `${v.id}: ${f.message}`));
    expect(messages).toHaveLength(2);
    for (const m of messages) expect(m).toMatch(/ — relying on values the target advertised: .*expires_in=600 \(captured from step \d+, check oauth\.deviceStart: POST \/login\/device\/code\)/);
    expect(messages.map((m) => m.split(':')[0]).sort()).toEqual(['OAUTH-DEVICE-EXPIRED-TOKEN', 'OAUTH-DEVICE-USER-CODE-EXPIRY']);
  });

  it('has a fault for every MUST requirement the server-side cases cover', async () => {
    const r = await runOAuth({ cases: ['device-code-is-forty-characters'] });
    const mustServer = r.requirements.filter((v) => v.level === 'MUST' && v.status !== 'excluded' && !v.id.startsWith('OAUTH-CLIENT-')).map((v) => v.id);
    const planted = new Set([...Object.values(FAULTS), ...Object.values(BROWSER_FAULTS)].map((f) => f.requirement));
    expect(mustServer.filter((id) => !planted.has(id))).toEqual([]);
  });
});
