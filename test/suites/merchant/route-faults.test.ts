import { describe, expect, it } from 'vitest';
import { matchOperation } from '../../../src/engine/api/match-exchange.js';
import type { Failure } from '../../../src/engine/model.js';
import { merchantTable } from '../../../reference/merchant/server/route-table.js';
import { rerouting } from '../../fixtures/merchant/faults/fault-kit.js';
import { erroredCases, runMerchant, serverCaseIds } from './run-merchant.js';

/**
 * A planted fault for every per-operation requirement: for each of the 135 operations, the
 * reference service with that one route not served. The route cases must fail that
 * operation's requirement, and any other route case that fails must have failed first on a
 * request for that operation (it needed one to set up, e.g. creating the account it then reads).
 */
describe('every operation, not served, is caught by its own requirement', () => {
  const table = merchantTable();
  const routeCases = serverCaseIds().filter((id) => id.startsWith('op-'));

  /** The operation a failure's exchange was a request for, on the unchanged table. */
  function operationOf(f: Failure): string | undefined {
    const m = /^([A-Z]+) (\S+) ->/.exec(f.exchange?.summary ?? '');
    if (!m) return undefined;
    const hit = matchOperation(table, m[1] as string, m[2] as string, 'http://h/content/v2.1');
    return hit.ok ? hit.operation.id : undefined;
  }

  it('has one route case per operation', () => {
    expect(routeCases).toHaveLength(table.operations.length);
  });

  it.each(table.operations.map((op) => [op.id, `MERCHANT-OP-${op.id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/[^A-Za-z0-9]+/g, '-').toUpperCase()}`] as const))(
    '%s not served -> %s',
    async (id, requirement) => {
      const r = await runMerchant({ options: rerouting(id, () => undefined), cases: routeCases });
      expect(erroredCases(r)).toEqual([]);
      const failed = r.requirements.filter((v) => v.status === 'failed').map((v) => v.id);
      expect(failed).toContain(requirement);
      const others = r.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'failed' && !c.requirements.includes(requirement));
      // each other case failed first on a request for the missing operation, made to set up that
      // case (what it then could not do may fail after it)
      const unexplained = others.filter((c) => !c.failures[0] || operationOf(c.failures[0]) !== id).map((c) => `${c.id}: ${c.failures[0]?.message ?? 'no failure recorded'}`);
      expect(unexplained).toEqual([]);
    },
  );
});
