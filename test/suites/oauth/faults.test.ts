import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { suite } from '../../../suites/oauth/index.js';
import { BROWSER_FAULTS, FAULTS, type Fault } from '../../fixtures/oauth/faults/faults.js';
import { loadedSuite, restingOn } from '../../helpers/suite-facts.js';
import { blockedRequirements, erroredCases, failedRequirements, runOAuth, serverCaseIds, story } from './run-target.js';

/**
 * Every planted fault is caught by exactly its requirement and the requirements its definition
 * says the same deviation breaks by their own wording (alsoBreaks): each of them fails, nothing
 * else does; the requirements whose cases rest on the broken rule are reported blocked by it,
 * exactly those the definition names (blocks); no case errors.
 */

/**
 * Single-defect faults whose one deviation stops the cases of other rules at a step they rest
 * on: each fails its own requirement alone at the gate, and the others are blocked by it.
 */
const ROOTS = ['code-in-fragment', 'user-refuses-flow-tokens', 'poll-needs-secret', 'authorized-stays-pending', 'revoke-does-nothing', 'expires-in-understated'];

/**
 * Generated inputs per property in a fault's run (the cases declare 15 to 100): a fault is a
 * systematic deviation, and every one below is caught by exactly its rule within the first few
 * generated inputs; the reference's own runs (reference.test.ts, the seed sweep) keep more.
 */
const FAULT_RUNS = 5;

/**
 * What a fault blocks: its `blocks`, and with `blocksResting` every requirement whose server-side
 * cases all rest on its requirement, read from the suite files. Sorted.
 */
function faultBlocks(fault: Fault): string[] {
  const ids = Object.keys(fault.blocks ?? {});
  if (fault.blocksResting === undefined) return ids.sort();
  const server = new Set(serverCaseIds());
  const resting = restingOn(loadedSuite(suite).cases.filter((c) => server.has(c.id)), fault.requirement);
  if (resting.length === 0) throw new Error(`no server-side case of the oauth suite rests on ${fault.requirement} any more`);
  return [...new Set([...ids, ...resting])].sort();
}

describe('planted faults in the reference platform', () => {
  const runs = new Map<string, RunResult>();
  beforeAll(async () => {
    for (const [name, fault] of Object.entries(FAULTS)) runs.set(name, await runOAuth({ fault, runs: FAULT_RUNS }));
  }, 900_000);

  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`${name}: ${fault.description} -> ${fault.requirement}`, () => {
      const r = runs.get(name);
      if (!r) throw new Error(`no run for ${name}`);
      const blocked = Object.fromEntries(faultBlocks(fault).map((id): [string, string[]] => [id, [fault.requirement]]));
      expect({ failed: failedRequirements(r), blocked: blockedRequirements(r), errored: erroredCases(r) }, story(r)).toEqual({
        failed: [fault.requirement, ...Object.keys(fault.alsoBreaks ?? {})].sort(),
        blocked,
        errored: [],
      });
    });
  }

  for (const name of ROOTS) {
    it(`${name}: one root at the gate, the rest blocked by it`, () => {
      const r = runs.get(name);
      const fault = FAULTS[name];
      if (!r || !fault) throw new Error(`no run or no fault for ${name}`);
      const level = new Map(r.requirements.map((v) => [v.id, v.level]));
      expect(failedRequirements(r).filter((id) => level.get(id) === 'MUST'), story(r)).toEqual(level.get(fault.requirement) === 'MUST' ? [fault.requirement] : []);
      const blocked = blockedRequirements(r);
      expect(Object.keys(blocked).length).toBeGreaterThan(0);
      for (const [id, by] of Object.entries(blocked)) expect(by, id).toEqual([fault.requirement]);
    });
  }

  it('keeps, as the evidence of the expiry cases it blocks, the advertised expires_in they relied on', () => {
    const r = runs.get('expires-in-understated');
    if (!r) throw new Error('the fault expires-in-understated did not run');
    const cases = r.suites.flatMap((s) => s.cases).filter((c) => c.id === 'device-code-expires-after-900-seconds' || c.id === 'device-user-code-expires-after-900-seconds');
    expect(cases).toHaveLength(2);
    for (const c of cases) {
      expect(c.blockedBy?.requirement, c.id).toBe('OAUTH-DEVICE-EXPIRES-IN');
      const messages = (c.blockedFailures ?? []).map((f) => f.message);
      expect(messages.length, c.id).toBeGreaterThan(0);
      for (const m of messages) expect(m).toMatch(/ — relying on values the target advertised: .*expires_in=600 \(captured from step \d+, check oauth\.deviceStart: POST \/login\/device\/code\)/);
    }
  });

  it('has a fault for every MUST requirement the server-side cases cover', async () => {
    const r = await runOAuth({ cases: ['device-code-is-forty-characters'] });
    const mustServer = r.requirements.filter((v) => v.level === 'MUST' && v.status !== 'excluded' && !v.id.startsWith('OAUTH-CLIENT-')).map((v) => v.id);
    const planted = new Set([...Object.values(FAULTS), ...Object.values(BROWSER_FAULTS)].map((f) => f.requirement));
    expect(mustServer.filter((id) => !planted.has(id))).toEqual([]);
  });
});
