import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../../../src/paths.js';
import { LISTEN_BUDGET_MS, VISIT_BUDGET_MS } from '../../../../suites/affiliate/checks/integration-run.js';
import { integrationCases } from '../run-integration.js';

describe('the budgets of the integration cases', () => {
  it('the launch contract page names the listen budget the integration check uses', () => {
    const page = readFileSync(fromRoot('reference', 'affiliate', 'integration', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(page).toContain(`waits until the port accepts connections (${LISTEN_BUDGET_MS / 1000} seconds at most)`);
    expect(page).toContain('once per case');
  });

  it("every integration case's timeout exceeds the launch's listen budget and the visit's budget together", () => {
    const cases = integrationCases();
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(c.timeoutMs, c.id).toBeGreaterThan(LISTEN_BUDGET_MS + VISIT_BUDGET_MS);
  });
});
