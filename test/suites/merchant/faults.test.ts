import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../fixtures/merchant/faults/faults.js';
import { erroredCases, failedRequirements, runMerchant } from './run-merchant.js';

/**
 * Every planted fault of the merchant service is caught by its requirement, and by nothing else
 * except the requirements its definition lists as depending on the broken route.
 */
describe('planted faults in the reference merchant service', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`${name}: ${fault.description} -> ${fault.requirement}`, async () => {
      const r = await runMerchant({ options: fault.options });
      const failed = failedRequirements(r);
      expect(failed).toContain(fault.requirement);
      if (fault.cascade?.includes('*')) return;
      expect(failed.filter((id) => id !== fault.requirement && !fault.cascade?.includes(id))).toEqual([]);
      expect(erroredCases(r)).toEqual([]);
    });
  }

  it('has a fault for every MUST requirement of the server side that is not one per operation', async () => {
    const r = await runMerchant({ cases: ['version-prefix'] });
    const planted = new Set(Object.values(FAULTS).flatMap((f) => [f.requirement, ...(f.cascade ?? [])]));
    const must = r.requirements.filter((v) => v.level === 'MUST' && v.status !== 'excluded' && !v.id.startsWith('MERCHANT-CLIENT-') && !v.id.startsWith('MERCHANT-OP-')).map((v) => v.id);
    expect(must.filter((id) => !planted.has(id))).toEqual([]);
  });
});
