import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { pool } from '../../../src/engine/run-suite.js';
import { fromRoot } from '../../../src/paths.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';
import { CLIENT_FAULTS, DEVICE_ONLY_STEPS, WEB_ONLY_STEPS, faultFlows } from '../../fixtures/oauth/clients/faults/catalog.js';
import { FAULT_CLIENT, SUITE_MODULE, clientCaseIds, clientRequirements, nodeCommand, runClientSuite, type CliRun } from '../../fixtures/oauth/clients/cli.js';

/**
 * The client side of the oauth suite through the CLI: the reference client passes every
 * OAUTH-CLIENT-* requirement, and each planted-fault client fails exactly the requirement it
 * breaks (plus the ones its catalog entry says the same behaviour breaks literally). Requirements
 * a fault keeps the flow from reaching are untested, never failed and never passed. A fault that
 * replaces steps of one flow only runs that flow's cases: the other flow never takes those steps
 * (checked below on the client's sources), so its cases would see the reference client.
 * Needs `npm run build` (the clients run as processes from dist/).
 */

describe('which flow takes which step of the client behaviour', () => {
  const source = (name: string): string => readFileSync(fromRoot('reference', 'oauth', 'client', name), 'utf8');
  const taken = (text: string, step: string): boolean => new RegExp(`\\bb\\.${step}\\b`).test(text);
  it('the device flow takes no web-only step, and the web flow no device-only one', () => {
    const web = source('web.ts');
    const device = source('device.ts');
    expect(WEB_ONLY_STEPS.filter((s) => taken(device, s) || !taken(web, s))).toEqual([]);
    expect(DEVICE_ONLY_STEPS.filter((s) => taken(web, s) || !taken(device, s))).toEqual([]);
  });
});
const built = builtSpecgate(SUITE_MODULE, FAULT_CLIENT, 'reference/oauth/client/main.js');
declarePeer(built);
// the clients sleep through the clock hook, so the runs are CPU-bound: more at once than cores only queue
const PARALLEL = 2;
const REFERENCE = '(reference client)';

const runs = new Map<string, CliRun>();
let reference: CliRun;

describe.skipIf(built.skip)('client side of the oauth suite, through the CLI', () => {
  beforeAll(async () => {
    // the device flow's runs wait in real time and take longest: started first, they do not end the pool alone
    const deviceFirst = Object.entries(CLIENT_FAULTS).sort(([, a], [, b]) => Number(faultFlows(b).includes('device')) - Number(faultFlows(a).includes('device')));
    await pool([REFERENCE, ...deviceFirst.map(([name]) => name)], PARALLEL, async (name) => {
      if (name === REFERENCE) reference = await runClientSuite(undefined);
      else {
        const fault = CLIENT_FAULTS[name];
        if (fault) runs.set(name, await runClientSuite(nodeCommand(FAULT_CLIENT, name), clientCaseIds(faultFlows(fault))));
      }
    });
  }, 900_000);

  it('passes every client requirement with the reference client (the embedded default)', () => {
    expect(clientRequirements(reference.report, 'failed')).toEqual([]);
    expect(clientRequirements(reference.report, 'untested')).toEqual([]);
    const cases = reference.report.suites.flatMap((s) => s.cases);
    expect(cases.length).toBe(clientCaseIds().length);
    expect(cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}`)).toEqual([]);
    expect(reference.exitCode).toBe(0);
  });

  for (const [name, fault] of Object.entries(CLIENT_FAULTS)) {
    it(`${name} (${fault.description}) is caught by ${fault.requirement}`, () => {
      const run = runs.get(name);
      expect(run, 'the run of this fault').toBeDefined();
      if (!run) return;
      const expected = [fault.requirement, ...(fault.alsoBreaks?.requirements ?? [])].sort();
      expect(clientRequirements(run.report, 'failed')).toEqual(expected);
      const verdict = run.report.requirements.find((v) => v.id === fault.requirement);
      expect(verdict?.failures[0]?.message).toBeTruthy();
      // a gating (MUST) failure makes the run exit 1
      if (verdict?.level === 'MUST') expect(run.exitCode).toBe(1);
    });
  }

  it('has a planted fault for every client requirement', () => {
    const catalog = parse(readFileSync(fromRoot('suites', 'oauth', 'requirements.yaml'), 'utf8')) as { id: string; excluded?: string }[];
    const client = catalog.filter((r) => r.id.startsWith('OAUTH-CLIENT-') && !r.excluded).map((r) => r.id);
    const planted = new Set(Object.values(CLIENT_FAULTS).map((f) => f.requirement));
    expect(client.filter((id) => !planted.has(id))).toEqual([]);
  });
});
