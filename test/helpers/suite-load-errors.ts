import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { loadSuites } from '../../src/engine/run.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { SpecgateErrorList } from '../../src/errors.js';

/**
 * A loader of one suite with a case file of the test's own (`cases/probe.yaml`) instead of its
 * cases: the suite's requirements, `suite.yaml` and schemas are copied into a temporary folder
 * (removed after the test file). The returned function gives the load errors' messages, none
 * when the suite loads; an error that is not a load error is thrown.
 */
export function suiteLoadErrors(suite: SuiteModule): (cases: string) => string[] {
  const dir = mkdtempSync(join(tmpdir(), `specgate-${suite.name}-contract-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (cases) => {
    const root = mkdtempSync(join(dir, 'suite-'));
    for (const f of ['requirements.yaml', 'suite.yaml', 'schemas']) cpSync(join(suite.dir, f), join(root, f), { recursive: true });
    mkdirSync(join(root, 'cases'));
    writeFileSync(join(root, 'cases', 'probe.yaml'), cases);
    try {
      loadSuites([{ ...suite, dir: root }], [suite.name]);
      return [];
    } catch (e) {
      if (!(e instanceof SpecgateErrorList)) throw e;
      return e.errors.map((x) => x.message);
    }
  };
}
