import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../../../src/paths.js';
import { INTEGRATION_STAGES, LISTEN_BUDGET_MS, STAGE_IDLE_MS, VISIT_BUDGET_MS } from '../../../../suites/affiliate/checks/integration-run.js';

const WORDS = ['none', 'one', 'two', 'three', 'four'];

describe('the launch contract page states what the integration cases do', () => {
  const page = readFileSync(fromRoot('reference', 'affiliate', 'integration', 'README.md'), 'utf8').replace(/\s+/g, ' ');

  it('names the budgets the integration check uses', () => {
    expect(page).toContain(`waits until the port accepts connections (${LISTEN_BUDGET_MS / 1000} seconds at most)`);
    expect(page).toContain(`${VISIT_BUDGET_MS / 1000} seconds is the most one visit may take`);
    expect(STAGE_IDLE_MS).toBe(1000);
    expect(page).toContain('when no case has used it for a second');
  });

  it('names how many integrations a run launches at once', () => {
    expect(page).toContain(`a run launches at most ${WORDS[INTEGRATION_STAGES] ?? INTEGRATION_STAGES} at once`);
  });
});
