import { loadSuites, run } from '../../../src/engine/run.js';
import type { RunResult } from '../../../src/engine/model.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { startReference } from '../../../reference/oauth/server/reference-target.js';
import { suite } from '../../../suites/oauth/index.js';
import { isClientCase } from '../../fixtures/oauth/clients/cli.js';
import type { Fault } from '../../fixtures/oauth/faults/faults.js';
export { blockedBy as blockedRequirements, erroredCases, failedRequirements, story } from '../../helpers/verdicts.js';

/** Whether a case opens the platform's pages in headless Chromium (cases/sign-in-pages.yaml). */
export function isBrowserCase(c: { location: { file: string } }): boolean {
  return /[\\/]sign-in-pages\.yaml$/.test(c.location.file);
}

/**
 * IDs of the server-side cases (every case but the client-side ones). The browser cases are left
 * out unless asked for: a browser costs seconds a run, so they are judged apart (browser.test.ts).
 */
export function serverCaseIds(opts: { browser?: boolean } = {}): string[] {
  const loaded = loadSuites([suite], ['oauth']).suites[0];
  return (loaded?.cases ?? []).filter((c) => !isClientCase(c) && (opts.browser === true || !isBrowserCase(c))).map((c) => c.id);
}

/** IDs of the browser cases. */
export function browserCaseIds(): string[] {
  const loaded = loadSuites([suite], ['oauth']).suites[0];
  return (loaded?.cases ?? []).filter(isBrowserCase).map((c) => c.id);
}

/** Runs the oauth suite's server-side cases in-process against the reference, or the reference with a planted fault. */
export async function runOAuth(opts: { fault?: Fault; seed?: number; cases?: string[]; runs?: number } = {}): Promise<RunResult> {
  const { fault } = opts;
  const module: SuiteModule = fault
    ? { ...suite, reference: { start: ({ clock }) => startReference({ ...fault.options(clock), clock }) } }
    : suite;
  return run({ modules: [module], suites: ['oauth'], targets: {}, seed: opts.seed ?? 4242, cases: opts.cases ?? serverCaseIds(), ...(opts.runs !== undefined ? { runs: opts.runs } : {}) });
}

