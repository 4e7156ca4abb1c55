/**
 * Baseline entries naming one requirement of one case (`<suite>/<case-id>:<REQ>`), end to end:
 * the demo suite against planted-fault greeting services. The entry expects exactly that
 * deviation; the same requirement failing in another case, or another requirement failing in
 * the same case, still fails the gate; a stale or expired entry fails the run.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { CLOCK_HOOK, DEMO_MODULE, assertBuilt, caseOf, demoSection, readReport, reportOf, runCli, runDemo, statusMap, tempDir, writeBaseline, writeProfile } from './cli.js';
import { CONFORMANT } from './demo-verdicts.js';
import { faultServers } from './fault-server.js';

const tmp = tempDir();
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

const baselineFile = (name: string, entries: { id: string; reason: string; expires?: string }[]): string => writeBaseline(tmp.dir, name, entries);

/**
 * The demo suite with a second case judging DEMO-HELLO (`hello-again`), so one requirement can
 * fail in two cases: a copy of its folder plus one case file, served by a module that reuses the
 * demo's code with the copied folder.
 */
function demoWithSecondGreetingCase(): string {
  const dir = join(tmp.dir, 'demo-twice');
  cpSync(fromRoot('test/fixtures/demo/suite'), join(dir, 'suite'), { recursive: true });
  writeFileSync(
    join(dir, 'suite', 'cases', 'greeting-again.yaml'),
    ['- id: hello-again', '  requirements: [DEMO-HELLO]', '  steps:', '    - request: { method: GET, url: "${base_url}/hello", query: { name: again }, accept: json }', '      expect: { status: 200, body: { message: { $equals: hello again } } }', ''].join('\n'),
  );
  const module = join(dir, 'suite.mjs');
  writeFileSync(module, `import { suite as demo } from ${JSON.stringify(pathToFileURL(DEMO_MODULE).href)};\nexport const suite = { ...demo, dir: ${JSON.stringify(join(dir, 'suite'))} };\n`);
  return module;
}

describe('an entry for one requirement of one case', () => {
  let wrongGreeting: string;
  let lowerName: string;
  let twice: string;
  beforeAll(async () => {
    const [a, b] = await Promise.all([faultServer('wrong-greeting'), faultServer('lower-name')]);
    wrongGreeting = writeProfile(tmp.dir, 'wrong-greeting', { suites: { demo: demoSection(a.url, { clock: CLOCK_HOOK }) } });
    lowerName = writeProfile(tmp.dir, 'lower-name', { suites: { demo: demoSection(b.url, { clock: CLOCK_HOOK }) } });
    twice = demoWithSecondGreetingCase();
  });

  const runTwice = async (baseline: string): Promise<{ code: number | null; report: ReturnType<typeof readReport> }> => {
    const json = join(tmp.dir, `twice-${Date.now()}.json`);
    const res = await runCli(['run', '--suite-module', twice, '--suite', 'demo', '--target', wrongGreeting, '--baseline', baseline, '--report', `json=${json}`], { cwd: tmp.dir });
    return { code: res.code, report: readReport(json) };
  };

  it('does not hide the same requirement failing in another case', async () => {
    const run = await runTwice(baselineFile('one-of-two', [{ id: 'demo/hello-world:DEMO-HELLO', reason: 'vendor says hi here' }]));
    expect(statusMap(run.report)['DEMO-HELLO']).toBe('failed');
    expect(caseOf(run.report, 'hello-world')).toMatchObject({ outcome: 'failed', baseline: 'expected-failure' });
    expect(caseOf(run.report, 'hello-again')).toMatchObject({ outcome: 'failed', baseline: null });
    expect(run.code).toBe(1);
  });

  it('with an entry for each failing case the requirement is an expected failure and the run passes', async () => {
    const run = await runTwice(
      baselineFile('both', [
        { id: 'demo/hello-world:DEMO-HELLO', reason: 'vendor says hi here' },
        { id: 'demo/hello-again:DEMO-HELLO', reason: 'and here' },
      ]),
    );
    expect(statusMap(run.report)).toEqual({ ...CONFORMANT, 'DEMO-HELLO': 'expected-failure' });
    // the reasons of both entries, in the order the cases were loaded
    expect(run.report.requirements.find((r) => r.id === 'DEMO-HELLO')?.reason?.split('; ').sort()).toEqual(['and here', 'vendor says hi here']);
    expect(run.code).toBe(0);
  });

  it('expects only its own requirement of a case that judges two', async () => {
    const expected = await runDemo(tmp.dir, ['--target', lowerName, '--baseline', baselineFile('case-only', [{ id: 'demo/name-echo:DEMO-HELLO-CASE', reason: 'lower-cases names' }])]);
    expect(statusMap(reportOf(expected))).toEqual({ ...CONFORMANT, 'DEMO-HELLO-CASE': 'expected-failure' });
    expect(caseOf(reportOf(expected), 'name-echo').baseline).toBe('expected-failure');
    expect(expected.code).toBe(0);

    // The other requirement of the same case listed instead: the real failure gates, and the
    // listed one, judged and passed, is stale.
    const other = await runDemo(tmp.dir, ['--target', lowerName, '--baseline', baselineFile('wrong-req', [{ id: 'demo/name-echo:DEMO-HELLO-UNICODE', reason: 'mangles names' }])]);
    const report = reportOf(other);
    expect(statusMap(report)).toMatchObject({ 'DEMO-HELLO-CASE': 'failed', 'DEMO-HELLO-UNICODE': 'passed' });
    expect(report.requirements.find((r) => r.id === 'DEMO-HELLO-UNICODE')?.stale).toBe(true);
    expect(report.summary.staleBaseline).toEqual([{ id: 'demo/name-echo:DEMO-HELLO-UNICODE', reason: 'mangles names' }]);
    expect(other.code).toBe(1);
  });

  it('is stale once the case passes: exit 1 and a message to remove it', async () => {
    const run = await runDemo(tmp.dir, ['--baseline', baselineFile('stale', [{ id: 'demo/name-echo:DEMO-HELLO-CASE', reason: 'lower-cased once' }])]);
    const report = reportOf(run);
    expect(statusMap(report)).toEqual(CONFORMANT);
    expect(caseOf(report, 'name-echo').baseline).toBe('stale');
    expect(report.summary.staleBaseline).toEqual([{ id: 'demo/name-echo:DEMO-HELLO-CASE', reason: 'lower-cased once' }]);
    expect(run.stdout).toMatch(/1 baseline entry is stale \(now passing: remove them\)/);
    expect(run.code).toBe(1);
  });

  it('fails the run once expired, though its failure is as expected', async () => {
    const run = await runDemo(tmp.dir, ['--target', lowerName, '--baseline', baselineFile('expired', [{ id: 'demo/name-echo:DEMO-HELLO-CASE', reason: 'until the fix', expires: '2000-01-01' }])]);
    expect(statusMap(reportOf(run))['DEMO-HELLO-CASE']).toBe('expected-failure');
    expect(reportOf(run).summary.expiredBaseline).toEqual([{ id: 'demo/name-echo:DEMO-HELLO-CASE', reason: 'until the fix', expires: '2000-01-01' }]);
    expect(run.code).toBe(1);
  });

  it('naming a requirement its case does not judge is warned about, and expects nothing', async () => {
    const run = await runDemo(tmp.dir, ['--target', wrongGreeting, '--baseline', baselineFile('typo', [{ id: 'demo/hello-world:DEMO-HELLO-CASE', reason: 'typo' }])]);
    expect(`${run.stdout}${run.stderr}`).toContain('baseline entry "demo/hello-world:DEMO-HELLO-CASE" names no requirement');
    expect(statusMap(reportOf(run))['DEMO-HELLO']).toBe('failed');
    expect(run.code).toBe(1);
  });
});
