import { afterAll, describe, expect, it } from 'vitest';
import { failedRequirements, platformCaseIds, platformSuite, runAffiliate, unpassedCases } from './run-affiliate.js';

describe('affiliate suite against the reference platform', () => {
  const platform = platformSuite();
  afterAll(() => platform.dispose());

  it('passes every platform-side case and judges every requirement they cover', async () => {
    const r = await runAffiliate(platform.module);
    expect(unpassedCases(r)).toEqual([]);
    expect(failedRequirements(r)).toEqual([]);
    const cases = r.suites.flatMap((s) => s.cases);
    expect(cases.map((c) => c.id).sort()).toEqual(platformCaseIds(platform.module).sort());
    const unjudged = r.requirements.filter((v) => v.cases.length > 0 && !v.id.startsWith('AFF-INT-') && v.status !== 'passed').map((v) => `${v.id}: ${v.status}`);
    expect(unjudged).toEqual([]);
  }, 300_000);
});
