import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { runnableScript } from './plugin-scripts.js';
import { blockedRequirements, erroredCases, failedGating, failedRequirements, runPluginSide, unpassed, untestedRequirements } from './run-plugin-side.js';

/**
 * Plugin-side planted faults run in-process on the current sources (faults.test.ts runs the
 * whole catalog through the built command line): each fails exactly its requirement, what it
 * disturbs beyond its own wording is reported blocked by that requirement, and no case errors.
 * The control plugin writes an insertion target of its own in every answer and passes.
 */

interface PlantedFault {
  requirement: string;
  /** Requirements the run reports blocked by `requirement`. */
  blocks?: string[];
  /** Requirements left with nothing to judge: untested, with the reason. */
  notJudged?: string[];
}

const FAULTS: Record<string, PlantedFault> = {
  'plugin-dot-dir-single-file': { requirement: 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS', blocks: ['PLUGIN-FILE-TO-GENERATE'] },
  'plugin-indexes-before-creating': { requirement: 'PLUGIN-INSERTION-EXISTING-FILE', blocks: ['PLUGIN-FILE-TO-GENERATE'] },
  'plugin-error-beside-every-answer': {
    requirement: 'PLUGIN-ERROR-ONLY-ON-FAILURE',
    blocks: [
      'PLUGIN-FEATURE-PROTO3-OPTIONAL', 'PLUGIN-FILE-APPEND-HAS-PREVIOUS', 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS', 'PLUGIN-FILE-NAME-ONCE',
      'PLUGIN-FILE-NAME-RELATIVE', 'PLUGIN-FILE-NAME-SLASH-SEPARATOR', 'PLUGIN-FILE-TO-GENERATE', 'PLUGIN-INSERTION-EXISTING-FILE',
      'PLUGIN-INSERTION-NAMES-FILE', 'PLUGIN-INSERTION-POINT-MARKED', 'PLUGIN-UNKNOWN-FIELDS-IGNORED', 'PLUGIN-VERSION-OPTIONAL', 'PLUGIN-WIRE-FIELD-ORDER',
    ],
  },
  'plugin-text-output': {
    requirement: 'PLUGIN-IO-RESPONSE-DECODES',
    blocks: ['PLUGIN-DETERMINISTIC', 'PLUGIN-FILE-TO-GENERATE', 'PLUGIN-UNKNOWN-FIELDS-IGNORED', 'PLUGIN-VERSION-OPTIONAL', 'PLUGIN-WIRE-FIELD-ORDER'],
  },
  'plugin-crashes-on-proto3-optional': { requirement: 'PLUGIN-ERROR-EXIT-ZERO', notJudged: ['PLUGIN-FEATURE-PROTO3-OPTIONAL'] },
  'plugin-ignores-file-to-generate': { requirement: 'PLUGIN-FILE-TO-GENERATE' },
  'plugin-renames-import-output': { requirement: 'PLUGIN-FILE-TO-GENERATE' },
};

/** Requirements at MUST: the ones that gate without --strict. */
const MUST = new Set(['PLUGIN-FILE-NAME-NO-DOT-COMPONENTS', 'PLUGIN-INSERTION-EXISTING-FILE', 'PLUGIN-IO-RESPONSE-DECODES', 'PLUGIN-ERROR-EXIT-ZERO', 'PLUGIN-FILE-TO-GENERATE']);

const out = mkdtempSync(join(tmpdir(), 'specgate-plugin-scripts-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function runScript(source: string): Promise<RunResult> {
  return runPluginSide(runnableScript(source, out));
}

describe('plugin-side planted faults, in-process', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`${name} fails ${fault.requirement} only; what it disturbs is blocked by it`, async () => {
      const r = await runScript(`test/fixtures/plugin/faults/${name}.ts`);
      const blocked = (fault.blocks ?? []).map((id) => `${id} <- ${fault.requirement}`).sort();
      expect({ failed: failedRequirements(r), gating: failedGating(r), blocked: blockedRequirements(r), errored: erroredCases(r) }, unpassed(r)).toEqual({
        failed: [fault.requirement],
        gating: MUST.has(fault.requirement) ? [fault.requirement] : [],
        blocked,
        errored: [],
      });
      const untested = untestedRequirements(r);
      for (const id of fault.notJudged ?? []) expect(untested.get(id), id).toContain(`not judged: ${id}`);
      // a target fault is never a harness failure (exit 3)
      expect(r.summary.exitCode).toBe(MUST.has(fault.requirement) ? 1 : 0);
    }, 120_000);
  }

  it('a plugin that sets error on every valid answer is the target\'s fault: exit 1 when its rule gates, 4 when too little was judged, never 3', async () => {
    const script = runnableScript('test/fixtures/plugin/faults/plugin-error-beside-every-answer.ts', out);
    const gated = await runPluginSide(script, { stricter: true });
    expect(failedRequirements(gated), unpassed(gated)).toEqual(['PLUGIN-ERROR-ONLY-ON-FAILURE']);
    expect(erroredCases(gated)).toEqual([]);
    expect(gated.summary.exitCode).toBe(1);
    const judged = await runPluginSide(script, { requireJudged: 100 });
    expect(judged.summary.judged.judged).toBeLessThan(judged.summary.judged.gating);
    expect(erroredCases(judged)).toEqual([]);
    expect(judged.summary.exitCode).toBe(4);
    expect(judged.summary.verdict).toContain('fewer than --require-judged 100%');
  }, 240_000);

  it('a plugin that fills an index file of its own run (created, then inserted into) passes PLUGIN-FILE-TO-GENERATE', async () => {
    const r = await runScript('test/fixtures/plugin/controls/plugin-run-index.ts');
    const v = r.requirements.find((q) => q.id === 'PLUGIN-FILE-TO-GENERATE');
    expect(v?.status, unpassed(r)).toBe('passed');
    expect(v?.evidence ?? 0).toBeGreaterThan(0);
    expect(failedRequirements(r), unpassed(r)).toEqual([]);
    expect(erroredCases(r)).toEqual([]);
  }, 120_000);

  it('a rule no stored fixture of the subset applies to is untested with the reason, not passed', async () => {
    const script = runnableScript('reference/plugin/plugin-main.ts', out);
    const r = await runPluginSide(script, { cases: ['plugin-declares-proto3-optional'], fixtures: 'shop' });
    const v = r.requirements.find((q) => q.id === 'PLUGIN-FEATURE-PROTO3-OPTIONAL');
    expect(v?.status).toBe('untested');
    expect(v?.reason).toContain('no input applies to it (fixtures shop)');
  }, 120_000);
});
