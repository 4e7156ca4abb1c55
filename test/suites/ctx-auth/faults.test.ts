import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { loadSuites } from '../../../src/engine/run.js';
import { suite } from '../../../suites/ctx-auth/index.js';
import { CTX_FAULTS } from '../../fixtures/ctx-auth/faults/faults.js';
import { blockedRequirements, erroredCases, failedRequirements, runServerSide, story, untestedRequirements } from './run-ctx.js';
import { expectedOutcome } from './run-faults.js';

/**
 * Planted faults in the ctx-auth reference server, each judged in-process on the server side
 * (one run per fault): every fault fails exactly its requirement, the ones its definition says
 * the same deviation breaks by their own wording, and the SHOULDs its mode leaves out; the
 * requirements whose cases rest on the broken rule are reported blocked by it, exactly those its
 * definition names; nothing is untested and no case errors; and the gate (a MUST failed) follows
 * the levels of what failed.
 */

const loaded = loadSuites([suite], ['ctx-auth']).suites[0];
const requirements = (loaded?.requirements ?? []).filter((q) => q.id.startsWith('CTX-SRV-') && !q.excluded);
const level = new Map(requirements.map((q) => [q.id, q.level]));

/** The SHOULDs a server can be shown to deviate from (the others are not observable apart from a MUST). */
const PLANTABLE_SHOULDS = ['METADATA', 'METADATA-SHAPE', 'METADATA-ISSUER', 'METADATA-S256', 'PKCE-PLAIN', 'DCR', 'DCR-VALID', 'DCR-INVALID', 'EXPIRES-IN', 'REFRESH', 'REFRESH-ROTATION', 'CLIENT-CREDENTIALS'].map((s) => `CTX-SRV-${s}`);

/**
 * Single-defect faults whose one deviation stops the cases of other rules at a step they rest
 * on: each fails its own requirement alone at the gate, and blocks the others.
 */
const ROOTS = ['metadata-without-token-endpoint', 'public-clients-not-registered', 'preconfigured-client-refused', 'bearer-refused', 'anonymous-403', 'fallback-token-missing'];

describe('the catalog of planted ctx-auth faults', () => {
  const planted = new Set(Object.values(CTX_FAULTS).map((f) => f.requirement));

  it('has a fault for every server MUST requirement and every plantable SHOULD', () => {
    const must = requirements.filter((q) => q.level === 'MUST').map((q) => q.id);
    expect(must.length).toBeGreaterThan(20);
    expect([...must, ...PLANTABLE_SHOULDS].filter((id) => !planted.has(id))).toEqual([]);
  });

  it('names only server requirements of the suite, each with why, never its own among the others', () => {
    for (const [name, f] of Object.entries(CTX_FAULTS)) {
      const others = { ...f.alsoBreaks, ...f.blocks };
      expect([f.requirement, ...Object.keys(others)].filter((id) => !level.has(id)), name).toEqual([]);
      expect(Object.keys(others), name).not.toContain(f.requirement);
      expect(Object.keys(f.alsoBreaks ?? {}).filter((id) => id in (f.blocks ?? {})), name).toEqual([]);
      expect(Object.values(others).filter((why) => why.trim().length < 20), name).toEqual([]);
    }
  });

  it('has the root faults this file singles out, each blocking something', () => {
    for (const name of ROOTS) expect(Object.keys(CTX_FAULTS[name]?.blocks ?? {}).length, name).toBeGreaterThan(0);
  });
});

describe('planted faults in the ctx-auth reference server, in-process', () => {
  const outcomes = new Map<string, RunResult>();
  beforeAll(async () => {
    for (const [name, fault] of Object.entries(CTX_FAULTS)) outcomes.set(name, await runServerSide({ name, fault }));
  }, 600_000);

  for (const [name, fault] of Object.entries(CTX_FAULTS)) {
    it(`${name}: ${fault.description} -> ${fault.requirement}`, () => {
      const r = outcomes.get(name);
      expect(r, `no run for ${name}`).toBeDefined();
      if (!r) return;
      const want = expectedOutcome(fault);
      expect({ failed: failedRequirements(r), blocked: blockedRequirements(r), untested: untestedRequirements(r), errored: erroredCases(r) }, story(r)).toEqual({ ...want, untested: {}, errored: [] });
      const gating = want.failed.some((id) => level.get(id) === 'MUST');
      expect(r.summary.exitCode, story(r)).toBe(gating ? 1 : 0);
    });
  }

  for (const name of ROOTS) {
    it(`${name}: one root at the gate, the rest blocked by it`, () => {
      const r = outcomes.get(name);
      const fault = CTX_FAULTS[name];
      if (!r || !fault) throw new Error(`no run or no fault for ${name}`);
      const gatingFailed = failedRequirements(r).filter((id) => level.get(id) === 'MUST');
      expect(gatingFailed, story(r)).toEqual(level.get(fault.requirement) === 'MUST' ? [fault.requirement] : []);
      const blocked = blockedRequirements(r);
      expect(Object.keys(blocked).length).toBeGreaterThan(0);
      for (const [id, by] of Object.entries(blocked)) expect(by, id).toEqual([fault.requirement]);
    });
  }
});
