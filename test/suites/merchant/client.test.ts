import { describe, expect, it } from 'vitest';
import { MERCHANT_API_PREFIX } from '../../../reference/merchant/client/contract.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';
import { expectEveryClientCasePassed, expectNoClientRequirementJudged, expectNothingJudged, referenceAndFaultRuns, silentClientRun } from '../../helpers/client-fault-runs.js';
import { CLIENT_CASES, CLIENT_REQUIREMENTS, FAULT_CLIENT, REFERENCE_CLIENT, clientStatuses, nodeCommand, onlyFailing, runMerchantClientCases } from '../../fixtures/merchant/clients/cli.js';
import { MERCHANT_CLIENT_FAULTS, type MerchantClientFault } from '../../fixtures/merchant/clients/faults.js';

/**
 * The client side of the merchant suite through the CLI: the bundled reference client (the
 * embedded default) passes the four MERCHANT-CLIENT-* requirements; each planted-fault client
 * fails exactly the requirement it breaks, naming the planted request; a client that sends
 * nothing leaves the cases errored, never passed. Needs `npm run build`.
 *
 * Not covered here: a client that keeps running. The check gives it 60 seconds before stopping
 * it, and the case file sets no shorter budget, so the case would cost a minute.
 */
const built = builtSpecgate(FAULT_CLIENT, REFERENCE_CLIENT);
declarePeer(built);

/** What the client that sends no request writes before it exits. */
const SILENT_STDERR = 'no catalog to upload';

/**
 * The planted request's path as a pattern: the fault's template below its prefix, any ID where
 * the template has a parameter (the service answered the IDs, so they are not known here).
 */
function plantedPath(fault: MerchantClientFault): string {
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `${fault.call.prefix ?? MERCHANT_API_PREFIX}${fault.call.path}`
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/?]+' : escape(part)))
    .join('');
}

describe.skipIf(built.skip)('client side of the merchant suite, through the CLI', () => {
  const runs = referenceAndFaultRuns(Object.keys(MERCHANT_CLIENT_FAULTS), (client) => runMerchantClientCases(client === undefined ? {} : { client }), (name) => nodeCommand(FAULT_CLIENT, '--fault', name));

  it('passes the four client requirements with the reference client (the embedded default)', () => {
    const reference = runs.reference();
    expectEveryClientCasePassed(reference, clientStatuses(reference.report), onlyFailing(), CLIENT_CASES);
  });

  for (const [name, fault] of Object.entries(MERCHANT_CLIENT_FAULTS)) {
    it(`${name} (${fault.description}) fails ${fault.requirement} only, naming the planted request`, () => {
      const run = runs.fault(name);
      expect(run, 'the run of this fault').toBeDefined();
      if (!run) return;
      expect(clientStatuses(run.report)).toEqual(onlyFailing(fault.requirement, ...(fault.alsoBreaks?.requirements ?? [])));
      expect(run.exitCode).toBe(1);
      const failures = run.report.requirements.find((v) => v.id === fault.requirement)?.failures ?? [];
      expect(failures).toHaveLength(1);
      const failure = failures[0];
      const path = plantedPath(fault);
      // exactly one request broke the rule, and it is the planted one: in the list, the message and the exchange
      expect(failure?.message).toMatch(/^1 of \d+ requests /);
      expect(failure?.message).toMatch(new RegExp(`: ${fault.call.method} ${path}(:|;|\\s|$)`));
      expect(failure?.actual).toEqual([expect.stringMatching(new RegExp(`^${fault.call.method} ${path}(\\?|$)`))]);
      expect(failure?.exchange?.request).toMatchObject({ method: fault.call.method, url: expect.stringMatching(new RegExp(`^${path}(\\?|$)`)) });
    });
  }

  it('has a planted-fault client for every client requirement', () => {
    const planted = new Set(Object.values(MERCHANT_CLIENT_FAULTS).map((f) => f.requirement));
    expect(CLIENT_REQUIREMENTS.filter((id) => !planted.has(id))).toEqual([]);
  });
});

describe.skipIf(built.skip)('a merchant client that sends no request', () => {
  const silent = silentClientRun('specgate-merchant-silent-', SILENT_STDERR, (client) => runMerchantClientCases({ client }), (script) => nodeCommand(script));

  it('leaves every client case with nothing to judge (skipped, never passed), saying the client sent no request and how it ended', () => {
    expectNothingJudged(silent(), CLIENT_CASES, SILENT_STDERR);
  });

  it('judges none of the client requirements (untested, not passed): a fault of the client, so no verdict of conformance (exit 4), not a harness fault', () => {
    const run = silent();
    expectNoClientRequirementJudged(run, clientStatuses(run.report), CLIENT_REQUIREMENTS);
  });
});
