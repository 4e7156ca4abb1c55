import { it } from 'vitest';
import { erroredCases, runMerchant } from '../../suites/merchant/run-merchant.js';
it('runs', async () => {
  const r = await runMerchant({});
  console.log(JSON.stringify(r.summary));
  for (const s of r.suites) for (const c of s.cases) if (c.outcome !== 'passed') console.log(c.id, c.outcome, JSON.stringify((c as unknown as { failures?: unknown[] }).failures ?? c.reason).slice(0, 800));
  console.log(erroredCases(r));
}, 300000);
