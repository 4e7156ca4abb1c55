import { it } from 'vitest';
import { FAULTS } from '../../fixtures/merchant/faults/faults.js';
import { erroredCases, failedRequirements, runMerchant } from '../../suites/merchant/run-merchant.js';
it('faults', async () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    const r = await runMerchant({ options: fault.options });
    const failed = failedRequirements(r);
    const extra = failed.filter((id) => id !== fault.requirement && !fault.cascade?.includes(id));
    console.log(`${name}: caught=${failed.includes(fault.requirement)} extra=${fault.cascade?.includes('*') ? '(any)' : JSON.stringify(extra)} errored=${JSON.stringify(erroredCases(r))}`);
  }
}, 600000);
