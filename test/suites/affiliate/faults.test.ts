import { describe, expect, it } from 'vitest';
import { loadSuites } from '../../../src/engine/run.js';
import { suite } from '../../../suites/affiliate/index.js';
import { FAULTS } from '../../fixtures/affiliate/faults/faults.js';
import { describePlantedFaults } from './describe-faults.js';

// the other half of the catalog runs in faults-part-2.test.ts, side by side with this file
describePlantedFaults(1, 2);

describe('the catalog of planted affiliate faults', () => {
  const loaded = loadSuites([suite], ['affiliate']).suites[0];
  const requirements = loaded?.requirements ?? [];

  it('has a fault for every MUST platform requirement that is not excluded', () => {
    const must = requirements.filter((q) => q.level === 'MUST' && !q.excluded && !q.id.startsWith('AFF-INT-')).map((q) => q.id);
    const planted = new Set(Object.values(FAULTS).map((f) => f.requirement));
    expect(must.length).toBeGreaterThan(50);
    expect(must.filter((id) => !planted.has(id))).toEqual([]);
  });

  it('names only requirements the suite has', () => {
    const known = new Set(requirements.map((q) => q.id));
    const named = Object.values(FAULTS).flatMap((f) => [f.requirement, ...(f.alsoBreaks ?? [])]);
    expect(named.filter((id) => !known.has(id))).toEqual([]);
  });
});
