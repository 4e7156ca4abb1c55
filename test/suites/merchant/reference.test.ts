import { describe, expect, it } from 'vitest';
import { erroredCases, failedRequirements, runMerchant } from './run-merchant.js';

describe('merchant suite against the reference service', () => {
  it('passes every server-side case, with a requirement per operation judged', async () => {
    const r = await runMerchant();
    expect(erroredCases(r)).toEqual([]);
    expect(failedRequirements(r)).toEqual([]);
    const ops = r.requirements.filter((v) => v.id.startsWith('MERCHANT-OP-'));
    expect(ops).toHaveLength(135);
    expect(ops.filter((v) => v.status !== 'passed')).toEqual([]);
    const untested = r.requirements.filter((v) => v.status === 'untested' && !v.id.startsWith('MERCHANT-CLIENT-')).map((v) => v.id);
    expect(untested).toEqual([]);
  });
});
