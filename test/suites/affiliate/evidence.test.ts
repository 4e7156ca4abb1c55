import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { EMPTY_LISTS } from '../../fixtures/affiliate/controls/empty-lists.js';
import { blockedRequirements, failedRequirements, platformSuite, RECORD_RULES, untestedRequirements } from './run-affiliate.js';
import { runPlatform } from './run-faults.js';

describe('no pass without evidence: a platform whose lists are empty', () => {
  const platform = platformSuite();
  let r: RunResult | undefined;
  beforeAll(async () => {
    r = await runPlatform(platform.module, EMPTY_LISTS);
  }, 300_000);
  afterAll(() => platform.dispose());

  it('leaves the rules judged on records untested, each with the reason, and fails nothing', () => {
    if (!r) throw new Error('no run');
    const untested = untestedRequirements(r);
    for (const id of RECORD_RULES) {
      const verdict = r.requirements.find((v) => v.id === id);
      expect(verdict?.status, id).toBe('untested');
      expect(verdict?.evidence ?? 0, id).toBe(0);
      // the reason names what was missing (no items at the list's records, no postback to filter)
      expect(untested.get(id), id).toMatch(/no items at \$\.items|no items at items|no postback/);
    }
    // a platform holding no records breaks no rule: it is judged less, not failed or blocked
    expect({ failed: failedRequirements(r), blocked: blockedRequirements(r) }).toEqual({ failed: [], blocked: [] });
  });
});
