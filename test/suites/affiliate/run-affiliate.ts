import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../../../src/engine/model.js';
import { loadSuites, run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { suite } from '../../../suites/affiliate/index.js';

/**
 * The suite with its platform-side cases only: a copy of its folder without the integration
 * case files (those drive a browser and an integration process, and have tests of their own).
 */
export function platformSuite(): { module: SuiteModule; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-affiliate-platform-'));
  cpSync(suite.dir, dir, { recursive: true, filter: (src) => !/[\\/]cases[\\/]integration[^\\/]*\.yaml$/.test(src) && !src.endsWith('.ts') });
  return { module: { ...suite, dir }, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The platform-side case files of the suite. */
export function platformCaseFiles(): string[] {
  return readdirSync(join(suite.dir, 'cases')).filter((f) => f.endsWith('.yaml') && !f.startsWith('integration'));
}

/** IDs of the platform-side cases. */
export function platformCaseIds(module: SuiteModule): string[] {
  const loaded = loadSuites([module], ['affiliate']).suites[0];
  return (loaded?.cases ?? []).map((c) => c.id);
}

/** Runs the platform-side cases in-process against the reference platform. */
export async function runAffiliate(module: SuiteModule, opts: { seed?: number; cases?: string[] } = {}): Promise<RunResult> {
  return run({ modules: [module], suites: ['affiliate'], targets: {}, seed: opts.seed ?? 4242, cases: opts.cases ?? platformCaseIds(module) });
}

/** Requirement IDs with a failed verdict. */
export function failedRequirements(r: RunResult): string[] {
  return r.requirements.filter((v) => v.status === 'failed').map((v) => v.id).sort();
}

/** Cases that did not pass, with why. */
export function unpassedCases(r: RunResult): string[] {
  return r.suites.flatMap((s) => s.cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''} ${c.failures.map((f) => f.message).join(' | ')}`));
}
