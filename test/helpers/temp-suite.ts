import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { SuiteModule } from '../../src/engine/suite-module.js';

/**
 * A suite module of the test's own in a temporary folder (removed after the describe block):
 * its `requirements.yaml`, one case file `cases/c.yaml`, its typed checks, and a reference that
 * starts nothing. Call it inside a describe block.
 */
export function tempSuite(name: string, files: { requirements: string; cases: string }, checks: SuiteModule['checks']): SuiteModule {
  const dir = mkdtempSync(join(tmpdir(), `specgate-suite-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'cases'));
  writeFileSync(join(dir, 'requirements.yaml'), files.requirements);
  writeFileSync(join(dir, 'cases', 'c.yaml'), files.cases);
  return { name, dir, checks, reference: { start: async () => ({ description: 'nothing', vars: {}, stop: async () => undefined }) } };
}
