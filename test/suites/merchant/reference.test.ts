import { describe, expect, it } from 'vitest';
import { suite } from '../../../suites/merchant/index.js';
import { loadedSuite } from '../../helpers/suite-facts.js';
import { erroredCases, failedRequirements, opRequirement, runMerchant } from './run-merchant.js';

describe('merchant suite against the reference service', () => {
  it('passes every server-side case, with a requirement per operation judged', async () => {
    const r = await runMerchant();
    expect(erroredCases(r)).toEqual([]);
    expect(failedRequirements(r)).toEqual([]);
    // one requirement per operation of api.yaml, each judged and passed
    const operations = loadedSuite(suite).api?.operations ?? [];
    expect(operations.length).toBeGreaterThan(0);
    const ops = r.requirements.filter((v) => v.id.startsWith('MERCHANT-OP-'));
    expect(ops.map((v) => v.id).sort()).toEqual(operations.map((o) => opRequirement(o.id)).sort());
    expect(ops.filter((v) => v.status !== 'passed')).toEqual([]);
    const untested = r.requirements.filter((v) => v.status === 'untested' && !v.id.startsWith('MERCHANT-CLIENT-')).map((v) => v.id);
    expect(untested).toEqual([]);
  });
});
