import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../fixtures/events/faults/faults.js';
import { ROUTE_FAULTS } from '../../fixtures/events/faults/route-faults.js';
import { coveredMustRequirements, erroredCases, failedRequirements, runEvents, serverCaseIds } from './run-events.js';

/**
 * Planted faults the cases cannot catch yet, each with what is missing. A fault listed here is
 * not run; once its case exists, take it off the list (the last test fails while a listed fault
 * is already caught, so the list cannot go stale unnoticed).
 */
const WAITING: Record<string, string> = {};

/**
 * Every planted fault of the events services is caught by its requirement, and by nothing else
 * except the requirements its definition lists as depending on the broken rule.
 */
describe('planted faults in the reference events services', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    const title = `${name}: ${fault.description} -> ${fault.requirement}`;
    if (WAITING[name] !== undefined) {
      it.todo(`${title} (waiting: ${WAITING[name]})`);
      continue;
    }
    it(title, async () => {
      const r = await runEvents({ options: fault.options });
      const failed = failedRequirements(r);
      expect(failed).toContain(fault.requirement);
      if (fault.cascade?.includes('*')) return;
      expect(failed.filter((id) => id !== fault.requirement && !fault.cascade?.includes(id))).toEqual([]);
      expect(erroredCases(r)).toEqual([]);
    });
  }

  // a fault waiting for its case counts as planted: it is there, and listed above as not yet caught
  it('has a fault for every MUST requirement of the server side that a case covers', () => {
    const planted = new Set([...Object.values(FAULTS), ...Object.values(ROUTE_FAULTS)].map((f) => f.requirement));
    expect(coveredMustRequirements().filter((id) => !planted.has(id))).toEqual([]);
  });

  it('waits only for faults that exist and are still not caught', async () => {
    expect(Object.keys(WAITING).filter((name) => !FAULTS[name])).toEqual([]);
    const caught: string[] = [];
    for (const name of Object.keys(WAITING)) {
      const fault = FAULTS[name];
      if (fault && failedRequirements(await runEvents({ options: fault.options })).includes(fault.requirement)) caught.push(name);
    }
    expect(caught).toEqual([]);
  });
});

/**
 * Every platform operation, not served, is caught by its own op-* case, and by no other op-*
 * case (each of those uses its own operation only). The other cases that use the operation
 * would fail too; they are left out here.
 */
describe('every platform operation, not served, is caught by its own requirement', () => {
  const opCases = serverCaseIds().filter((id) => id.startsWith('op-'));

  it('has one op-* case per platform operation', () => {
    expect(opCases).toHaveLength(Object.keys(ROUTE_FAULTS).length);
  });

  for (const [name, fault] of Object.entries(ROUTE_FAULTS)) {
    it(`${name} -> ${fault.requirement}`, async () => {
      const r = await runEvents({ options: fault.options, cases: opCases });
      expect(failedRequirements(r)).toEqual([fault.requirement]);
      expect(erroredCases(r)).toEqual([]);
    });
  }
});
