import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pool } from '../../../src/engine/run-suite.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';
import { tempDir } from '../../e2e/cli.js';
import { CLIENT_CASES, CLIENT_REQUIREMENTS, FAULT_CLIENT, REFERENCE_CLIENT, clientStatuses, nodeCommand, onlyFailing, runEventsClientCases, type EventsCliRun } from '../../fixtures/events/clients/cli.js';
import { EVENTS_CLIENT_FAULTS } from '../../fixtures/events/clients/faults.js';

/**
 * The client side of the events suite through the CLI: the bundled reference client (the
 * embedded default) passes every EVENTS-CLIENT-* requirement; each planted-fault client fails
 * exactly the requirement it breaks (and what its deviation necessarily breaks with it); a
 * client that sends nothing leaves the cases errored, never passed. Needs `npm run build`.
 */
const built = builtSpecgate(FAULT_CLIENT, REFERENCE_CLIENT, 'suites/events/index.js');
declarePeer(built);
const PARALLEL = 2;
const REFERENCE = '(reference client)';

const runs = new Map<string, EventsCliRun>();
let reference: EventsCliRun;

describe.skipIf(built.skip)('client side of the events suite, through the CLI', () => {
  beforeAll(async () => {
    await pool([REFERENCE, ...Object.keys(EVENTS_CLIENT_FAULTS)], PARALLEL, async (name) => {
      if (name === REFERENCE) reference = await runEventsClientCases();
      else runs.set(name, await runEventsClientCases({ client: nodeCommand(FAULT_CLIENT, '--fault', name) }));
    });
  }, 300_000);

  it('passes every client requirement with the reference client (the embedded default)', () => {
    expect(clientStatuses(reference.report)).toEqual(onlyFailing());
    const cases = reference.report.suites.flatMap((s) => s.cases);
    expect(cases.map((c) => c.id).sort()).toEqual([...CLIENT_CASES].sort());
    expect(cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}`)).toEqual([]);
    expect(reference.exitCode).toBe(0);
  });

  for (const [name, fault] of Object.entries(EVENTS_CLIENT_FAULTS)) {
    it(`${name} (${fault.description}) fails ${fault.requirement} only`, () => {
      const run = runs.get(name);
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
  let tmp: ReturnType<typeof tempDir> | undefined;
  let run: EventsCliRun;
  beforeAll(async () => {
    tmp = tempDir('specgate-events-silent-');
    const script = join(tmp.dir, 'silent-client.mjs');
    writeFileSync(script, `process.stderr.write('nothing to watch\\n');\nprocess.exit(3);\n`);
    run = await runEventsClientCases({ client: nodeCommand(script) });
  }, 120_000);
  afterAll(() => tmp?.remove());

  it('leaves every client case with nothing to judge (skipped, never passed), saying the client sent no request and how it ended', () => {
    const cases = run.report.suites.flatMap((s) => s.cases);
    expect(cases.map((c) => c.id).sort()).toEqual([...CLIENT_CASES].sort());
    for (const c of cases) {
      expect(c.outcome, c.id).toBe('skipped');
      expect(c.reason, c.id).toMatch(/^nothing to judge: .*the client sent no request \(it ended: .*exit status 3; stderr: nothing to watch/s);
    }
  });

  it('judges none of the client requirements (untested, not passed): a fault of the client, so no verdict of conformance (exit 4), not a harness fault', () => {
    expect(clientStatuses(run.report)).toEqual(Object.fromEntries(CLIENT_REQUIREMENTS.map((id) => [id, 'untested'])));
    expect(run.exitCode).toBe(4);
  });
});
