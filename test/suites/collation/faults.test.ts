import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuites } from '../../../src/engine/run.js';
import { suite } from '../../../suites/collation/index.js';
import { tempDir } from '../../e2e/cli.js';
import { COMPARATOR_DEVIATIONS } from '../../fixtures/collation/faults/comparator-faults.js';
import { COLLATION_FAULTS } from '../../fixtures/collation/faults/faults.js';
import { STORE_DEVIATIONS } from '../../fixtures/collation/faults/store-faults.js';
import { inTurns } from '../ctx-auth/run-faults.js';
import { expectedOutcome, faultBlocks, runFault, runFaultHere, type FaultOutcome } from './run-faults.js';
import { prepareComparator } from '../../../reference/collation/comparator/index.js';

// the comparator's ICU4X engine loads once, before the first comparison
await prepareComparator();

/**
 * Planted faults in the collation reference store and its comparator: every fault fails exactly
 * its requirement and the ones its definition says the same deviation breaks by their wording;
 * what its definition says it blocks is reported blocked by its requirement alone, and nothing
 * else is; the requirements it leaves untested are exactly those it names; no case errors; and the exit
 * code gates on MUST failures only. Every fault runs in this process against a fresh planted
 * store (a command-line run costs about two seconds of start-up, most of it loading every suite
 * and compiling the comparator's ICU4X WebAssembly, times every fault); the clean store
 * and a few faults of each form also run through the command line against the faulty store
 * process as an `exec:` target, and must give the same verdicts.
 */

const loaded = loadSuites([suite], ['collation']).suites[0];
const requirements = (loaded?.requirements ?? []).filter((q) => !q.excluded);
const level = new Map(requirements.map((q) => [q.id, q.level]));

/**
 * The SHOULDs and MAYs with no planted fault, each with why: none today — a deviation from each
 * can be planted.
 */
const UNPLANTABLE: Record<string, string> = {};

/** CLI runs side by side: the machine has two cores, and a run spends much of its time starting. */
const WIDTH = 3;

/** The clean store: nothing failed, blocked, untested or not applicable, no broken case, exit 0. */
function expectClean(o: FaultOutcome | undefined): void {
  expect(o).toBeDefined();
  if (!o) return;
  expect({ failed: o.failed, blocked: o.blocked, untested: o.untested, notApplicable: o.notApplicable, brokenCases: o.brokenCases }, o.story).toEqual({
    failed: [],
    blocked: [],
    untested: [],
    notApplicable: [],
    brokenCases: [],
  });
  expect(o.exitCode, o.story).toBe(0);
}

describe('the catalog of planted collation faults', () => {
  const planted = new Set(Object.values(COLLATION_FAULTS).map((f) => f.requirement));

  it('has a fault for every judged requirement but those it says cannot be planted', () => {
    expect(requirements.length).toBeGreaterThan(60);
    expect(requirements.map((q) => q.id).filter((id) => !planted.has(id) && !(id in UNPLANTABLE))).toEqual([]);
    expect(Object.keys(UNPLANTABLE).filter((id) => level.get(id) === 'MUST' || planted.has(id))).toEqual([]);
  });

  it('names only judged requirements, each with why, never its own among the others', () => {
    for (const [name, f] of Object.entries(COLLATION_FAULTS)) {
      const others = { ...f.alsoBreaks, ...faultBlocks(f), ...f.untested };
      expect([f.requirement, ...Object.keys(others)].filter((id) => !level.has(id)), name).toEqual([]);
      expect(Object.keys(others), name).not.toContain(f.requirement);
      const lists = [f.alsoBreaks ?? {}, faultBlocks(f), f.untested ?? {}].map((l) => Object.keys(l));
      expect(lists.flat().length, `${name} names a requirement in two of alsoBreaks, blocks and untested`).toBe(new Set(lists.flat()).size);
      expect(Object.values(others).filter((why) => why.trim().length < 20), name).toEqual([]);
    }
  });

  it('has single-defect faults whose one failure blocks what rests on it', () => {
    // each breaks one rule other cases assume or set up through: it fails that rule alone and the rest is blocked by it
    for (const name of [
      'strength1ComparesCase', 'strength1ActsAsSecondary', 'strength2ComparesCase', 'numericOrderingIgnored', 'shiftedIgnored',
      'viewWithCollationRefused', 'collectionWithCollationRefused', 'indexWithCollationRefused',
    ]) {
      const f = COLLATION_FAULTS[name];
      expect(f, name).toBeDefined();
      expect(Object.keys(f?.alsoBreaks ?? {}), name).toEqual([]);
      expect(Object.keys(f ? faultBlocks(f) : {}).length, name).toBeGreaterThan(1);
    }
  });

  it('implements every fault where its kind says, and nothing else', () => {
    const byKind = (kind: string): string[] => Object.entries(COLLATION_FAULTS).filter(([, f]) => f.kind === kind).map(([n]) => n).sort();
    expect(Object.keys(COMPARATOR_DEVIATIONS).sort()).toEqual(byKind('comparator'));
    expect(Object.keys(STORE_DEVIATIONS).sort()).toEqual(byKind('store'));
  });
});

/** Faults also judged through the command line and the faulty store process: a store switch, a rewrite around the store, and comparator deviations of each form. */
const THROUGH_THE_CLI = ['viewOverrideAccepted', 'bulkFirstCollationForAll', 'identicalLevelIgnored', 'numericFalseActsAsTrue'];

/** The outcome a fault must show, as the assertions compare it. */
function expectation(name: string): { failed: string[]; blocked: string[]; untested: string[]; brokenCases: string[] } {
  const fault = COLLATION_FAULTS[name];
  if (!fault) throw new Error(`no fault ${name}`);
  return { ...expectedOutcome(fault), brokenCases: [] };
}

function gatingExit(name: string): number {
  return expectation(name).failed.some((id) => level.get(id) === 'MUST') ? 1 : 0;
}

describe('planted faults in the collation store, every one in this process', () => {
  const outcomes = new Map<string, FaultOutcome>();
  beforeAll(async () => {
    await inTurns([undefined, ...Object.keys(COLLATION_FAULTS)], WIDTH, async (name) => outcomes.set(name ?? '', await runFaultHere(name)));
  }, 600_000);

  it('the clean store passes every requirement from the sources, and the run exits 0', () => {
    expectClean(outcomes.get(''));
  });

  for (const [name, fault] of Object.entries(COLLATION_FAULTS)) {
    it(`${name}: ${fault.description} -> ${fault.requirement}`, () => {
      const o = outcomes.get(name);
      expect(o, `no run for ${name}`).toBeDefined();
      if (!o) return;
      expect({ failed: o.failed, blocked: o.blocked, untested: o.untested, brokenCases: o.brokenCases }, o.story).toEqual(expectation(name));
      expect(o.exitCode, o.story).toBe(gatingExit(name));
    });
  }
});

describe('the faulty store as an exec: target, through the command line', () => {
  const work = tempDir('specgate-collation-faults-');
  const outcomes = new Map<string, FaultOutcome>();
  afterAll(() => work.remove());
  beforeAll(async () => {
    await inTurns([undefined, ...THROUGH_THE_CLI], WIDTH, async (name) => outcomes.set(name ?? '', await runFault(name, work.dir)));
  }, 300_000);

  it('the clean store passes every requirement and the run exits 0', () => {
    expectClean(outcomes.get(''));
  });

  for (const name of THROUGH_THE_CLI) {
    it(`${name} fails the same requirements through the process, with the gating exit code`, () => {
      const o = outcomes.get(name);
      expect(o, `no run for ${name}`).toBeDefined();
      if (!o) return;
      expect({ failed: o.failed, blocked: o.blocked, untested: o.untested, brokenCases: o.brokenCases }, o.story).toEqual(expectation(name));
      expect(o.exitCode, o.story).toBe(gatingExit(name));
    });
  }
});
