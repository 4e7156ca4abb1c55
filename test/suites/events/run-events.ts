import type { RunResult } from '../../../src/engine/model.js';
import { loadSuites, run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { startEventsReference } from '../../../reference/events/server/reference-target.js';
import type { EventsServerOptions } from '../../../reference/events/server/server.js';
import { suite } from '../../../suites/events/index.js';
import type { EventsFault } from '../../fixtures/events/faults/fault-kit.js';
import { loadedSuite, restingOn } from '../../helpers/suite-facts.js';
export { erroredCases, failedRequirements } from '../../helpers/verdicts.js';

/**
 * What a fault blocks: its `blocks`, or with `'resting'` every requirement whose server-side
 * cases all rest on its requirement, read from the suite files.
 */
export function faultBlocks(fault: EventsFault): string[] {
  if (fault.blocks !== 'resting') return fault.blocks ?? [];
  const ids = restingOn(loadedSuite(suite).cases.filter((c) => !c.id.startsWith('client-')), fault.requirement);
  // a fault that blocks what rests on its rule blocks something: none means the cases changed
  if (ids.length === 0) throw new Error(`no server-side case of the events suite rests on ${fault.requirement} any more`);
  return ids;
}

/** IDs of the events suite's server-side cases (every case but the client ones). */
export function serverCaseIds(): string[] {
  const loaded = loadSuites([suite], ['events']).suites[0];
  return (loaded?.cases ?? []).filter((c) => !c.id.startsWith('client-')).map((c) => c.id);
}

/**
 * Runs the events suite's server-side cases in-process against the reference services, or
 * against ones started with `options` (a planted fault). A faulty service is started the way the
 * reference target starts the clean one (on the run's clock, with the same variables and user
 * agent), so the two runs differ only by the fault.
 */
export async function runEvents(opts: { options?: EventsServerOptions; seed?: number; cases?: string[] } = {}): Promise<RunResult> {
  const faulty = opts.options;
  const module: SuiteModule = faulty
    ? {
        ...suite,
        reference: {
          async start({ clock }) {
            const r = await startEventsReference({ ...faulty, clock });
            return { ...r, description: `events services with a planted fault at ${r.server.url}` };
          },
        },
      }
    : suite;
  return run({ modules: [module], suites: ['events'], targets: {}, seed: opts.seed ?? 4242, cases: opts.cases ?? serverCaseIds() });
}

/** Requirements reported blocked, each with the rules it is blocked by. */
export function blockedRequirements(r: RunResult): Record<string, string[]> {
  return Object.fromEntries(r.requirements.filter((v) => v.status === 'blocked').map((v) => [v.id, v.blockedBy ?? []]));
}

/** Requirements left untested, each with the reason the run gives. */
export function untestedRequirements(r: RunResult): Record<string, string> {
  return Object.fromEntries(r.requirements.filter((v) => v.status === 'untested').map((v) => [v.id, v.reason ?? '']));
}

/** MUST requirements of the server side (not excluded) that at least one case covers. */
export function coveredMustRequirements(): string[] {
  const loaded = loadSuites([suite], ['events']).suites[0];
  const covered = new Set((loaded?.cases ?? []).filter((c) => !c.id.startsWith('client-')).flatMap((c) => c.requirements));
  return (loaded?.requirements ?? []).filter((r) => r.level === 'MUST' && !r.excluded && covered.has(r.id) && !r.id.startsWith('EVENTS-CLIENT-')).map((r) => r.id);
}
