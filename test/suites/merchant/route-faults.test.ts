import { describe, expect, it } from 'vitest';
import { matchOperation } from '../../../src/engine/api/match-exchange.js';
import { merchantTable } from '../../../reference/merchant/server/route-table.js';
import { rerouting } from '../../fixtures/merchant/faults/fault-kit.js';
import { erroredCases, failedRequirements, opRequirement, runMerchant, serverCaseIds } from './run-merchant.js';

/**
 * A planted fault for every per-operation requirement: for each operation of api.yaml, the
 * reference service with that one route not served. The route cases must fail that
 * operation's requirement and nothing else: a route case that needed the operation to set up
 * (creating the item it then reads) is blocked by it, with the set-up request as its evidence.
 */
describe('every operation, not served, is caught by its own requirement alone', () => {
  const table = merchantTable();
  const routeCases = serverCaseIds().filter((id) => id.startsWith('op-'));

  /** The operation an exchange was a request for, on the unchanged table. */
  function operationOf(summary: string | undefined): string | undefined {
    const m = /^([A-Z]+) (\S+) ->/.exec(summary ?? '');
    if (!m) return undefined;
    const hit = matchOperation(table, m[1] as string, m[2] as string, 'http://h/content/v2.1');
    return hit.ok ? hit.operation.id : undefined;
  }

  it('has one route case per operation', () => {
    expect(routeCases).toHaveLength(table.operations.length);
  });

  it.each(table.operations.map((op) => [op.id, opRequirement(op.id)] as const))(
    '%s not served -> %s',
    async (id, requirement) => {
      const r = await runMerchant({ options: rerouting(id, () => undefined), cases: routeCases });
      expect(erroredCases(r)).toEqual([]);
      expect(failedRequirements(r)).toEqual([requirement]);
      // each case blocked is blocked by that requirement, on a request for the missing operation
      const blocked = r.suites.flatMap((s) => s.cases).filter((c) => c.blockedBy);
      const unexplained = blocked.filter((c) => c.blockedBy?.requirement !== requirement || operationOf(c.blockedBy.exchange?.summary) !== id).map((c) => `${c.id}: ${c.blockedBy?.requirement ?? ''} ${c.blockedBy?.exchange?.summary ?? 'no exchange'}`);
      expect(unexplained).toEqual([]);
    },
  );
});
