import { describe, expect, it } from 'vitest';
import { loadSuites } from '../../../src/engine/run.js';
import { suite } from '../../../suites/events/index.js';
import { EMPTY_LISTS, ROOT_FAULTS } from '../../fixtures/events/faults/faults-roots.js';
import { blockedRequirements, erroredCases, faultBlocks, runEvents, untestedRequirements } from './run-events.js';

/** Rules judged on the records a list holds: with no records, nothing judges them. */
const ON_RECORDS = ['EVENTS-PLAT-PUBLIC-ONLY', 'EVENTS-PLAT-USER-EVENTS-PUBLIC', 'EVENTS-MON-V1-LIST-SHAPE', 'EVENTS-MON-V2-LIST-SHAPE'];

/** The cases that cover those rules. */
function casesOnRecords(): string[] {
  const loaded = loadSuites([suite], ['events']).suites[0]?.cases ?? [];
  return loaded.filter((c) => c.requirements.some((id) => ON_RECORDS.includes(id))).map((c) => c.id);
}

/**
 * One defect, one failure: each of these faults fails exactly its requirement at the gating
 * level (MUST), and what it keeps other cases from judging is reported blocked by it.
 */
describe('single-defect events services name one root', () => {
  for (const [name, fault] of Object.entries(ROOT_FAULTS)) {
    it(`${name} -> ${fault.requirement}`, async () => {
      const r = await runEvents({ options: fault.options });
      const gatingFailed = r.requirements.filter((v) => v.status === 'failed' && v.level === 'MUST').map((v) => v.id);
      expect(gatingFailed).toEqual([fault.requirement]);
      const blocked = blockedRequirements(r);
      for (const id of faultBlocks(fault)) expect({ id, blockedBy: blocked[id] }).toEqual({ id, blockedBy: [fault.requirement] });
      expect(erroredCases(r)).toEqual([]);
    });
  }
});

/**
 * No pass without evidence: against lists that hold nothing, the rules judged on their records
 * are untested with the reason; against the reference, whose lists hold records (the list-shape
 * cases post one first), they pass.
 */
describe('rules judged on records', () => {
  const cases = casesOnRecords();

  it('are untested, with the reason, when every list is empty', async () => {
    const r = await runEvents({ options: EMPTY_LISTS, cases });
    const untested = untestedRequirements(r);
    for (const id of ON_RECORDS) expect({ id, reason: untested[id] }).toEqual({ id, reason: expect.stringMatching(/no items|empty list/) });
    expect(r.requirements.filter((v) => v.status === 'passed').map((v) => v.id)).toEqual([]);
    expect(erroredCases(r)).toEqual([]);
  });

  it('pass against the reference, judged on its records', async () => {
    const r = await runEvents({ cases });
    const verdicts = r.requirements.filter((v) => ON_RECORDS.includes(v.id));
    expect(Object.fromEntries(verdicts.map((v) => [v.id, v.status]))).toEqual(Object.fromEntries(ON_RECORDS.map((id) => [id, 'passed'])));
    for (const v of verdicts) expect(v.evidence).toBeGreaterThan(0);
  });
});
