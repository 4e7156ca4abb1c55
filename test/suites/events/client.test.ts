import { describe, expect, it } from 'vitest';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';
import { expectEveryClientCasePassed, expectNoClientRequirementJudged, expectNothingJudged, referenceAndFaultRuns, silentClientRun } from '../../helpers/client-fault-runs.js';
import { CLIENT_CASES, CLIENT_REQUIREMENTS, FAULT_CLIENT, REFERENCE_CLIENT, clientStatuses, nodeCommand, onlyFailing, runEventsClientCases } from '../../fixtures/events/clients/cli.js';
import { EVENTS_CLIENT_FAULTS } from '../../fixtures/events/clients/faults.js';

/**
 * The client side of the events suite through the CLI: the bundled reference client (the
 * embedded default) passes every EVENTS-CLIENT-* requirement; each planted-fault client fails
 * exactly the requirement it breaks (and what its deviation necessarily breaks with it); a
 * client that sends nothing leaves the cases errored, never passed. Needs `npm run build`.
 */
const built = builtSpecgate(FAULT_CLIENT, REFERENCE_CLIENT, 'suites/events/index.js');
declarePeer(built);

/** What the client that sends no request writes before it exits. */
const SILENT_STDERR = 'nothing to watch';

describe.skipIf(built.skip)('client side of the events suite, through the CLI', () => {
  const runs = referenceAndFaultRuns(Object.keys(EVENTS_CLIENT_FAULTS), (client) => runEventsClientCases(client === undefined ? {} : { client }), (name) => nodeCommand(FAULT_CLIENT, '--fault', name));

  it('passes every client requirement with the reference client (the embedded default)', () => {
    const reference = runs.reference();
    expectEveryClientCasePassed(reference, clientStatuses(reference.report), onlyFailing(), CLIENT_CASES);
  });

  for (const [name, fault] of Object.entries(EVENTS_CLIENT_FAULTS)) {
    it(`${name} (${fault.description}) fails ${fault.requirement} only`, () => {
      const run = runs.fault(name);
      expect(run, 'the run of this fault').toBeDefined();
      if (!run) return;
      expect(clientStatuses(run.report)).toEqual(onlyFailing(fault.requirement, ...(fault.alsoBreaks ?? [])));
      const verdict = run.report.requirements.find((v) => v.id === fault.requirement);
      // a broken SHOULD is reported but does not gate the run (without --strict)
      expect(run.exitCode).toBe(verdict?.level === 'MUST' ? 1 : 0);
      const failures = verdict?.failures ?? [];
      expect(failures).toHaveLength(1);
      expect(failures[0]?.message).toMatch(/^\d+ of \d+ \w[\w ]* break the rule: /);
    });
  }

  it('has a planted-fault client for every MUST client requirement', () => {
    const planted = new Set(Object.values(EVENTS_CLIENT_FAULTS).map((f) => f.requirement));
    expect(CLIENT_REQUIREMENTS.filter((id) => id !== 'EVENTS-CLIENT-ACCEPT' && !planted.has(id))).toEqual([]);
  });
});

describe.skipIf(built.skip)('an events client that sends no request', () => {
  const silent = silentClientRun('specgate-events-silent-', SILENT_STDERR, (client) => runEventsClientCases({ client }), (script) => nodeCommand(script));

  it('leaves every client case with nothing to judge (skipped, never passed), saying the client sent no request and how it ended', () => {
    expectNothingJudged(silent(), CLIENT_CASES, SILENT_STDERR);
  });

  it('judges none of the client requirements (untested, not passed): a fault of the client, so no verdict of conformance (exit 4), not a harness fault', () => {
    const run = silent();
    expectNoClientRequirementJudged(run, clientStatuses(run.report), CLIENT_REQUIREMENTS);
  });
});
