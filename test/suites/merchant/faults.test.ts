import { describe, expect, it } from 'vitest';
import { suite } from '../../../suites/merchant/index.js';
import { FAULTS } from '../../fixtures/merchant/faults/faults.js';
import { casesRestingOn, loadedSuite, restingOn } from '../../helpers/suite-facts.js';
import { blockedCases, blockedRequirements, erroredCases, failedRequirements, runMerchant } from './run-merchant.js';

/** The server-side cases every fault's run takes, as loaded: what rests on what is read from them. */
const SERVER_CASES = loadedSuite(suite).cases.filter((c) => !c.id.startsWith('client-'));

/**
 * Every planted fault of the merchant service fails its requirement and only what the same
 * deviation breaks by its own words (`alsoBreaks`); what it keeps from being judged is reported
 * blocked by it (`blocks`, `blocksCases`; `blocks: 'resting'`: every case the suite files rest on
 * its requirement, and each requirement all of whose cases do), never failed; rules judged beside
 * it still pass.
 */
describe('planted faults in the reference merchant service', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`${name}: ${fault.description} -> ${fault.requirement}`, async () => {
      const r = await runMerchant({ options: fault.options });
      expect(erroredCases(r)).toEqual([]);
      const failing = [fault.requirement, ...(fault.alsoBreaks ?? [])];
      expect(failedRequirements(r)).toEqual([...failing].sort());
      const blocked = blockedRequirements(r);
      if (fault.blocks === 'all') {
        // every other server requirement that a case judges is blocked by the fault's own
        const judgedElsewhere = r.requirements.filter((v) => v.side === 'server' && v.status !== 'excluded' && !failing.includes(v.id));
        expect(judgedElsewhere.length).toBeGreaterThan(100);
        expect(judgedElsewhere.filter((v) => v.status !== 'blocked').map((v) => `${v.id}: ${v.status}`)).toEqual([]);
      } else {
        for (const id of fault.blocks === 'resting' ? restingOn(SERVER_CASES, fault.requirement) : (fault.blocks ?? [])) {
          const v = blocked.find((b) => b.id === id);
          expect(v, `${id} is blocked`).toBeDefined();
          expect(v?.blockedBy.some((by) => failing.includes(by)), `${id} is blocked by ${failing.join(' or ')}, not ${v?.blockedBy.join(', ')}`).toBe(true);
        }
      }
      const cases = blockedCases(r);
      const resting = fault.blocks === 'resting' ? casesRestingOn(SERVER_CASES, fault.requirement) : [];
      if (fault.blocks === 'resting') expect(resting, `the cases resting on ${fault.requirement}`).not.toEqual([]);
      for (const id of [...resting, ...(fault.blocksCases ?? [])]) expect(cases.find((c) => c.id === id), `case ${id} is blocked`).toBeDefined();
      for (const id of fault.stillPasses ?? []) expect(r.requirements.find((v) => v.id === id)?.status, `${id} still passes`).toBe('passed');
    });
  }

  it('has a fault for every MUST requirement of the server side that is not one per operation', async () => {
    const r = await runMerchant({ cases: ['version-prefix'] });
    const planted = new Set(Object.values(FAULTS).flatMap((f) => [f.requirement, ...(f.alsoBreaks ?? [])]));
    const must = r.requirements.filter((v) => v.level === 'MUST' && v.status !== 'excluded' && !v.id.startsWith('MERCHANT-CLIENT-') && !v.id.startsWith('MERCHANT-OP-')).map((v) => v.id);
    expect(must.filter((id) => !planted.has(id))).toEqual([]);
  });
});
