import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planTargets } from '../../../cli/target-choice.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { tempDir } from '../../e2e/cli.js';
import { harEntry, harFile } from './har-builder.js';

const tmp = tempDir('specgate-har-plan-');
afterAll(() => tmp.remove());

const withApi = join(tmp.dir, 'with-api');
mkdirSync(withApi);
writeFileSync(join(withApi, 'api.yaml'), 'base: "${api_url}"\noperations: []\n');
const har = join(tmp.dir, 'traffic.har');
writeFileSync(har, JSON.stringify(harFile([harEntry({}), harEntry({ method: 'POST' })])));

const MODULES: SuiteModule[] = [
  { name: 'described', dir: withApi },
  { name: 'plain', dir: tmp.dir, targetOptions: [{ flag: 'plain', valueName: 'exe', description: 'x', vars: (v) => ({ exe: v }) }] },
];

function usage(f: () => unknown): SpecgateError {
  try {
    f();
  } catch (e) {
    if (e instanceof SpecgateError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('--target har:<file>', () => {
  it('judges the suites that describe an API, with the recording loaded once and labelled', () => {
    const plan = planTargets(MODULES, { target: `har:${har}`, flags: {} });
    expect(plan.suites).toEqual(['described']);
    const choice = plan.targets['described'];
    expect(choice?.section).toBeUndefined();
    expect(choice?.label).toBe(`recording ${har} (2 exchanges)`);
    expect(choice?.recording?.exchanges.map((x) => x.method)).toEqual(['GET', 'POST']);
  });

  it('applies to the suites --suite names instead', () => {
    expect(planTargets(MODULES, { suites: ['plain'], target: `har:${har}`, flags: {} }).suites).toEqual(['plain']);
  });

  it('needs a file, and refuses flags that name a live target', () => {
    expect(usage(() => planTargets(MODULES, { target: 'har:', flags: {} })).message).toMatch(/needs the recording after the colon/);
    const mixed = usage(() => planTargets(MODULES, { target: `har:${har}`, flags: { plain: './x' } }));
    expect(mixed.code).toBe('SG_USAGE');
    expect(mixed.message).toMatch(/cannot be combined with --plain/);
    expect(usage(() => planTargets([MODULES[1] as SuiteModule], { target: `har:${har}`, flags: {} })).message).toMatch(/no suite describes an HTTP API/);
  });
});
