import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuites } from '../../../src/engine/run.js';
import { suite } from '../../../suites/ctx-auth/index.js';
import { tempDir } from '../../e2e/cli.js';
import { CTX_FAULTS } from '../../fixtures/ctx-auth/faults/faults.js';
import { expectedOutcome, inTurns, runFault, type FaultOutcome } from './run-faults.js';

/**
 * Planted faults in the ctx-auth reference server, each judged through the command line
 * (`specgate run --side server`, one run per fault, a few side by side): every fault fails
 * exactly its requirement, the ones its definition says the same deviation breaks by their
 * wording, and the SHOULDs its mode leaves out; the requirements it leaves untested are exactly
 * those it names (their cases cannot go on, and say so); no case errors for any other reason;
 * and the exit code gates on MUST failures only.
 */

const loaded = loadSuites([suite], ['ctx-auth']).suites[0];
const requirements = (loaded?.requirements ?? []).filter((q) => q.id.startsWith('CTX-SRV-') && !q.excluded);
const level = new Map(requirements.map((q) => [q.id, q.level]));

/** The SHOULDs a server can be shown to deviate from (the others are not observable apart from a MUST). */
const PLANTABLE_SHOULDS = ['METADATA', 'METADATA-S256', 'PKCE-PLAIN', 'DCR', 'EXPIRES-IN', 'REFRESH', 'REFRESH-ROTATION', 'CLIENT-CREDENTIALS'].map((s) => `CTX-SRV-${s}`);

/** CLI runs side by side: the machine has two cores, and a run spends most of its time starting. */
const WIDTH = 3;

describe('the catalog of planted ctx-auth faults', () => {
  const planted = new Set(Object.values(CTX_FAULTS).map((f) => f.requirement));

  it('has a fault for every server MUST requirement and every plantable SHOULD', () => {
    const must = requirements.filter((q) => q.level === 'MUST').map((q) => q.id);
    expect(must.length).toBeGreaterThan(25);
    expect([...must, ...PLANTABLE_SHOULDS].filter((id) => !planted.has(id))).toEqual([]);
  });

  it('names only server requirements of the suite, each with why, never its own among the others', () => {
    for (const [name, f] of Object.entries(CTX_FAULTS)) {
      const others = { ...f.alsoBreaks, ...f.untested };
      expect([f.requirement, ...Object.keys(others)].filter((id) => !level.has(id)), name).toEqual([]);
      expect(Object.keys(others), name).not.toContain(f.requirement);
      expect(Object.keys(f.alsoBreaks ?? {}).filter((id) => id in (f.untested ?? {})), name).toEqual([]);
      expect(Object.values(others).filter((why) => why.trim().length < 20), name).toEqual([]);
    }
  });
});

describe('planted faults in the ctx-auth reference server, through the command line', () => {
  const names = Object.keys(CTX_FAULTS);
  const work = tempDir('specgate-ctx-faults-');
  const outcomes = new Map<string, FaultOutcome>();
  afterAll(() => work.remove());
  beforeAll(async () => {
    await inTurns(names, WIDTH, async (name) => outcomes.set(name, await runFault(name, work.dir)));
  }, 600_000);

  for (const [name, fault] of Object.entries(CTX_FAULTS)) {
    it(`${name}: ${fault.description} -> ${fault.requirement}`, () => {
      const o = outcomes.get(name);
      expect(o, `no run for ${name}`).toBeDefined();
      if (!o) return;
      const want = expectedOutcome(fault);
      expect({ failed: o.failed, untested: o.untested, brokenCases: o.brokenCases }, o.story).toEqual({ ...want, brokenCases: [] });
      const gating = want.failed.some((id) => level.get(id) === 'MUST');
      expect(o.exitCode, o.story).toBe(gating ? 1 : 0);
    });
  }
});
