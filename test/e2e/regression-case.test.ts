/**
 * Regression cases from shrunk counterexamples, end to end: the demo's doubling property fails
 * on a planted fault, the run also writes the case with the exact input that broke it, and that
 * case, committed into (a copy of) the suite, fails on the faulty service and passes on a
 * correct one, with no generator involved.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fromRoot } from '../../src/paths.js';
import { CLOCK_HOOK, DEMO_MODULE, assertBuilt, caseOf, demoSection, readReport, runCli, runDemo, tempDir, writeProfile } from './cli.js';
import { faultServers } from './fault-server.js';

const tmp = tempDir('specgate-regression-');
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

describe('a failed property case is also written as a regression case', () => {
  let badDouble: string;
  let file: string;
  beforeAll(async () => {
    const s = await faultServer('bad-double');
    badDouble = writeProfile(tmp.dir, 'bad-double', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const run = await runDemo(tmp.dir, ['--target', badDouble, '--case', 'double-property', '--seed', '7', '--regressions', join(tmp.dir, 'regressions')]);
    expect(run.code).toBe(1);
    const written = readdirSync(join(tmp.dir, 'regressions', 'demo'));
    expect(written).toHaveLength(1);
    file = join(tmp.dir, 'regressions', 'demo', written[0] as string);
    expect(run.stdout).toContain(`wrote regression case ${file}`);
  }, 60_000);

  it('holds the exact shrunk input and the model\'s answer, and no generator', () => {
    const [item] = parse(readFileSync(file, 'utf8')) as { id: string; requirements: string[]; vars: { case: number; oracle: number }; property?: unknown }[];
    // the planted fault doubles wrongly above 50: shrinking ends at the smallest such input
    expect(item?.vars).toEqual({ case: 51, oracle: 102 });
    expect(item?.property).toBeUndefined();
    expect(item?.requirements).toEqual(['DEMO-DOUBLE']);
    expect(item?.id).toMatch(/^double-property-regression-[0-9a-f]{8}$/);
  });

  it('goes beside the reports asked for when no --regressions is given, not under ./reports', async () => {
    const json = join(tmp.dir, 'gate', 'results.json');
    const res = await runCli(['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--target', badDouble, '--case', 'double-property', '--seed', '7', '--report', `json=${json}`], { cwd: tmp.dir });
    expect(res.code).toBe(1);
    expect(readdirSync(join(tmp.dir, 'gate', 'regressions', 'demo'))).toHaveLength(1);
    expect(existsSync(join(tmp.dir, 'reports'))).toBe(false);
    expect(res.stdout).toContain(`wrote regression case ${join(tmp.dir, 'gate', 'regressions', 'demo')}`);
  });

  it('committed into the suite, it fails while the bug is there and passes once it is fixed', async () => {
    const dir = join(tmp.dir, 'demo-with-regression');
    cpSync(fromRoot('test/fixtures/demo/suite'), join(dir, 'suite'), { recursive: true });
    cpSync(file, join(dir, 'suite', 'cases', 'regressions.yaml'));
    const module = join(dir, 'suite.mjs');
    writeFileSync(module, `import { suite as demo } from ${JSON.stringify(pathToFileURL(DEMO_MODULE).href)};\nexport const suite = { ...demo, dir: ${JSON.stringify(join(dir, 'suite'))} };\n`);
    const [item] = parse(readFileSync(file, 'utf8')) as { id: string }[];
    const id = item?.id as string;
    const run = async (name: string, extra: string[]): Promise<{ code: number | null; outcome: string; failed: string[] }> => {
      const json = join(tmp.dir, `${name}.json`);
      const res = await runCli(['run', '--suite-module', module, '--suite', 'demo', '--case', id, '--report', `json=${json}`, ...extra], { cwd: tmp.dir });
      const c = caseOf(readReport(json), id);
      return { code: res.code, outcome: c.outcome, failed: c.failures.map((f) => f.requirement) };
    };
    expect(await run('still-broken', ['--target', badDouble])).toEqual({ code: 1, outcome: 'failed', failed: ['DEMO-DOUBLE'] });
    expect(await run('fixed', [])).toEqual({ code: 0, outcome: 'passed', failed: [] });
  });
});
