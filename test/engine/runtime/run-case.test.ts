/**
 * How a case in flight ends when it must stop: its deadline (the run's --case-timeout, or the
 * case's own `timeoutMs`) and the run's interruption end it at once, even when its work never
 * notices; the cases of a suite share one queue of deadlines.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import { run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';

const dir = mkdtempSync(join(tmpdir(), 'specgate-run-case-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'cases'));
writeFileSync(join(dir, 'requirements.yaml'), '- { id: X-ONE, level: MUST, source: "x.txt#A", text: one }\n');
writeFileSync(
  join(dir, 'cases', 'a.yaml'),
  [
    '- id: hangs-past-the-run-deadline\n  requirements: [X-ONE]\n  steps:\n    - check: x.hang\n',
    '- id: hangs-past-its-own-deadline\n  requirements: [X-ONE]\n  timeoutMs: 60\n  steps:\n    - check: x.hang\n',
    '- id: quick\n  requirements: [X-ONE]\n  steps:\n    - check: x.quick\n',
  ].join(''),
);
const module: SuiteModule = {
  name: 'x',
  dir,
  checks: {
    // never settles and never looks at its signal: only the case's own stop can end it
    hang: defineCheck({ description: 'never answers', args: { type: 'object' }, judges: 'case', run: () => new Promise<void>(() => undefined) }),
    quick: defineCheck({ description: 'judges at once', args: { type: 'object' }, judges: 'case', run: async () => undefined }),
  },
  reference: { start: async () => ({ description: 'nothing', vars: {}, stop: async () => undefined }) },
};

describe('a case past its deadline', () => {
  it('errors with SG_CASE_TIMEOUT at its own deadline or the run one, while the others finish', async () => {
    const result = await run({ modules: [module], suites: ['x'], targets: {}, seed: 1, caseTimeoutMs: 250, concurrency: 3 });
    const byId = Object.fromEntries((result.suites[0]?.cases ?? []).map((c) => [c.id, c]));
    const run250 = byId['hangs-past-the-run-deadline'];
    const own60 = byId['hangs-past-its-own-deadline'];
    expect([run250?.outcome, run250?.errorCode, run250?.reason]).toEqual(['errored', 'SG_CASE_TIMEOUT', 'case took longer than 250 ms and was stopped; raise `timeoutMs` on the case or --case-timeout']);
    expect([own60?.outcome, own60?.errorCode, own60?.reason]).toEqual(['errored', 'SG_CASE_TIMEOUT', 'case took longer than 60 ms and was stopped; raise `timeoutMs` on the case or --case-timeout']);
    expect(byId['quick']?.outcome).toBe('passed');
    // never before its deadline, and the shorter one first
    expect(run250?.durationMs).toBeGreaterThanOrEqual(250);
    expect(own60?.durationMs).toBeGreaterThanOrEqual(60);
    expect(own60?.durationMs).toBeLessThan(run250?.durationMs ?? 0);
  });

  it('is skipped as interrupted when the run is interrupted first, and its deadline never fires after', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const result = await run({ modules: [module], suites: ['x'], targets: {}, seed: 1, caseTimeoutMs: 60_000, concurrency: 3, signal: controller.signal });
    const byId = Object.fromEntries((result.suites[0]?.cases ?? []).map((c) => [c.id, c]));
    expect([byId['hangs-past-the-run-deadline']?.outcome, byId['hangs-past-the-run-deadline']?.reason]).toEqual(['skipped', 'interrupted while running']);
    // its own 60 ms deadline was still ahead when the run was interrupted at 30 ms
    expect([byId['hangs-past-its-own-deadline']?.outcome, byId['hangs-past-its-own-deadline']?.reason]).toEqual(['skipped', 'interrupted while running']);
    expect(result.interrupted).toEqual({ signal: 'SIGINT' });
  });
});
