import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { runnableScript } from './plugin-scripts.js';
import { erroredCases, failedRequirements, runPluginSide, unpassed } from './run-plugin-side.js';

/**
 * Plugin-side planted faults in-process, on the current sources, for what the catalog-wide sweep
 * through the built command line (faults.test.ts: each fault fails exactly its requirement, blocks
 * what it declares, errors no case) does not ask: the exit codes of a fault under --stricter and
 * --require-judged, a control plugin that writes an insertion target of its own in every answer
 * and passes, and a rule no fixture of a subset applies to.
 */

const out = mkdtempSync(join(tmpdir(), 'specgate-plugin-scripts-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function runScript(source: string): Promise<RunResult> {
  return runPluginSide(runnableScript(source, out));
}

describe('plugin-side planted faults, in-process: exit codes, a control, a subset', () => {
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
