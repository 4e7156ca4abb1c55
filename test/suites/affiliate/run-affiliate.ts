import type { RunResult } from '../../../src/engine/model.js';
import { loadSuites, run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { suite } from '../../../suites/affiliate/index.js';
export { blockedLines as blockedRequirements, failedRequirements } from '../../helpers/verdicts.js';

/** The suite as registered (a handle kept for the callers' setup and teardown shape). */
export function platformSuite(): { module: SuiteModule; dispose(): void } {
  return { module: suite, dispose: () => undefined };
}

/** Whether a case is written in an integration-side case file (cases/integration*.yaml). */
const integrationSide = (file: string): boolean => /[\\/]cases[\\/]integration[^\\/]*\.yaml$/.test(file);

/** IDs of the platform-side cases (the integration side drives a browser and has tests of its own). */
export function platformCaseIds(module: SuiteModule): string[] {
  const loaded = loadSuites([module], ['affiliate']).suites[0];
  return (loaded?.cases ?? []).filter((c) => !integrationSide(c.location.file)).map((c) => c.id);
}

/** Runs the platform-side cases in-process against the reference platform. */
export async function runAffiliate(module: SuiteModule, opts: { seed?: number; cases?: string[] } = {}): Promise<RunResult> {
  return run({ modules: [module], suites: ['affiliate'], targets: {}, seed: opts.seed ?? 4242, cases: opts.cases ?? platformCaseIds(module) });
}

/** Rules judged on the records of a list: on a platform holding none, nothing judges them (untested, never passed). */
export const RECORD_RULES: readonly string[] = [
  'AFF-LEADS-SHAPE', 'AFF-LEADS-FLAGS', 'AFF-CONVERSIONS-SHAPE', 'AFF-POSTBACKS-SHAPE',
  'AFF-POSTBACKS-FILTER-WHITELABEL', 'AFF-POSTBACKS-FILTER-TYPE', 'AFF-POSTBACKS-FILTER-TITLE', 'AFF-POSTBACKS-FILTER-STATUS', 'AFF-POSTBACKS-FILTER-AFFILIATE-HASH', 'AFF-POSTBACKS-FILTER-URL', 'AFF-POSTBACKS-FILTER-ID',
];

/** Requirements reported untested, each with the reason: `ID: reason`. */
export function untestedRequirements(r: RunResult): Map<string, string> {
  return new Map(r.requirements.filter((v) => v.status === 'untested').map((v) => [v.id, v.reason ?? '']));
}

/** Cases that did not pass, with why. */
export function unpassedCases(r: RunResult): string[] {
  return r.suites.flatMap((s) => s.cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''} ${c.failures.map((f) => f.message).join(' | ')}`));
}
