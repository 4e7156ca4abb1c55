import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { FAULTS } from '../../fixtures/affiliate/faults/faults.js';
import { blockedRequirements, failedRequirements, platformSuite, unpassedCases } from './run-affiliate.js';
import { runFault } from './run-faults.js';

/** How long one fault's run may take: seconds on a quiet machine, many times that on a busy one. */
const FAULT_TIMEOUT_MS = 240_000;

/** Cases that errored (a harness or target fault, never a conformance verdict). */
function erroredCases(r: RunResult): string[] {
  return r.suites.flatMap((s) => s.cases.filter((c) => c.outcome === 'errored').map((c) => `${c.id}: ${c.reason ?? ''}`));
}

/**
 * The planted faults in one part of the catalog, each run in its own test, one after the other (the catalog is
 * split over two test files, which vitest runs side by side: two platforms at a time). Every
 * fault fails exactly its requirement plus the ones its definition says the same deviation
 * breaks by their wording, the requirements it `blocks` are blocked by its requirement (and
 * nothing else is blocked); no case errors. All platform-side cases run against each fault
 * (integration cases are left out: they play the platform themselves).
 */
export function describePlantedFaults(part: number, parts: number): void {
  const names = Object.keys(FAULTS).filter((_name, i) => i % parts === part - 1);
  describe(`planted faults in the reference affiliate platform (part ${part} of ${parts})`, () => {
    const platform = platformSuite();
    afterAll(() => platform.dispose());

    for (const name of names) {
      const fault = FAULTS[name];
      if (!fault) continue;
      // one run per test (tests of a file run one after the other): each fault has its own time
      // limit, so a busy machine slows the file down without failing every fault at once
      it(`${name}: ${fault.description} -> ${fault.requirement}`, async () => {
        const r = await runFault(platform.module, fault);
        const expected = [fault.requirement, ...(fault.alsoBreaks ?? [])].sort();
        // what the defect disturbs beyond its own wording is blocked by its requirement, never failed
        const blocked = (fault.blocks ?? []).map((id) => `${id} <- ${fault.requirement}`).sort();
        expect({ failed: failedRequirements(r), blocked: blockedRequirements(r), errored: erroredCases(r) }, unpassedCases(r).join('\n')).toEqual({ failed: expected, blocked, errored: [] });
      }, FAULT_TIMEOUT_MS);
    }
  });
}
