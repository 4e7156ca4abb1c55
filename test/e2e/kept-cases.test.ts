/**
 * `run --cases <dir>`, end to end: a run against a planted fault writes regression cases and
 * prints the command that runs them with the suite; that command, as printed, fails them on the
 * faulty service; against the reference they pass beside hand-written cases of another folder;
 * `list --cases` shows them; a malformed file stops the run (exit 2) with file:line:column, with
 * every problem at once and every file left as it was; `validate` checks such a file with its suite.
 * Needs `npm run build`.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_HOOK, DEMO_MODULE, assertBuilt, caseOf, demoSection, readReport, runCli, tempDir, writeProfile, type CliResult } from './cli.js';
import { faultServers } from './fault-server.js';
import { splitCommand } from './shell-words.js';

const tmp = tempDir('specgate-kept-cases-');
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

/** A hand-written case in the regression files' format, kept in a folder of its own. */
const OWN_CASE = `- id: double-of-twenty-one
  suite: demo
  description: Doubling 21 gives 42
  requirements: [DEMO-DOUBLE]
  steps:
    - request: { url: "\${base_url}/double", query: { n: "21" }, accept: json }
      expect: { status: 200, body: { n: 42 } }
`;

const demoRun = (args: string[]): Promise<CliResult> => runCli(['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', ...args], { cwd: tmp.dir });

describe('regression cases kept with a project run with the suite (--cases)', () => {
  let regressions: string;
  /** The regression file as messages and reports name it: relative to the folder the CLI ran in. */
  let file: string;
  let id: string;
  let printed: string;
  beforeAll(async () => {
    const s = await faultServer('bad-double');
    writeProfile(tmp.dir, 'bad-double', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const first = await demoRun(['--target', 'bad-double.yaml', '--seed', '7', '--report', 'json=gate/results.json']);
    expect(first.code).toBe(1);
    regressions = join(tmp.dir, 'gate', 'regressions');
    const written = readdirSync(join(regressions, 'demo'));
    expect(written).toHaveLength(1);
    file = join('gate', 'regressions', 'demo', written[0] as string);
    id = (written[0] as string).replace(/\.yaml$/, '');
    const line = first.stdout.split('\n').find((l) => l.startsWith(`run the suite with the regression cases in ${regressions} `));
    if (!line) throw new Error(`no --cases command printed: ${first.stdout}`);
    printed = line.slice(line.indexOf(': specgate ') + 2);
    mkdirSync(join(tmp.dir, 'mine'));
    writeFileSync(join(tmp.dir, 'mine', 'doubles.yaml'), OWN_CASE);
  }, 60_000);

  it('the printed command is the run with --cases <that folder>, and on the faulty service it fails them', async () => {
    expect(printed).toBe(`specgate run --suite-module ${DEMO_MODULE} --suite demo --target bad-double.yaml --report json=gate/results.json --cases ${regressions}`);
    const [bin, ...args] = splitCommand(printed);
    expect(bin).toBe('specgate');
    const res = await runCli(args, { cwd: tmp.dir });
    expect(res.code).toBe(1);
    const c = caseOf(readReport(join(tmp.dir, 'gate', 'results.json')), id);
    expect([c.outcome, c.failures.map((f) => f.requirement)]).toEqual(['failed', ['DEMO-DOUBLE']]);
    // the same input broke the property case again: the kept file is not written twice
    expect(res.stdout).toContain(`regression case ${id} is kept already`);
    expect(readdirSync(join(regressions, 'demo'))).toEqual([`${id}.yaml`]);
  });

  it('against the reference they pass, beside hand-written cases of another folder, each reported with its file', async () => {
    const res = await demoRun(['--cases', regressions, '--cases', 'mine', '--report', 'json=fixed.json']);
    expect([res.code, res.stderr]).toEqual([0, '']);
    const report = JSON.parse(readFileSync(join(tmp.dir, 'fixed.json'), 'utf8')) as { suites: { cases: { id: string; outcome: string; location: { file: string; line: number } | null }[] }[] };
    const cases = report.suites[0]?.cases ?? [];
    const of = (caseId: string): unknown => cases.filter((c) => c.id === caseId).map((c) => [c.outcome, c.location?.file]);
    expect(of(id)).toEqual([['passed', file]]);
    expect(of('double-of-twenty-one')).toEqual([['passed', join('mine', 'doubles.yaml')]]);
    // the suite's own cases ran too
    expect(cases.filter((c) => c.location?.file.includes(join('test', 'fixtures', 'demo'))).length).toBeGreaterThan(3);
  });

  it('list --cases shows them among the suite\'s cases and under the requirement they cover', async () => {
    const res = await runCli(['list', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--cases', regressions, '--cases', 'mine'], { cwd: tmp.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^ {4}DEMO-DOUBLE \\(MUST\\) — double-property, ${id}, double-of-twenty-one$`, 'm'));
    expect(res.stdout).toContain(`    ${id} [DEMO-DOUBLE]  ${file}:5\n`);
    expect(res.stdout).toContain(`    double-of-twenty-one [DEMO-DOUBLE]  ${join('mine', 'doubles.yaml')}:1\n`);
  });

  it('a malformed file in the folder stops the run (exit 2) at file:line:column, every problem at once, nothing changed', async () => {
    const folder = join(tmp.dir, 'with-broken');
    cpSync(regressions, folder, { recursive: true });
    const broken = join('with-broken', 'demo', 'broken.yaml');
    writeFileSync(join(tmp.dir, broken), '- id: broken-by-hand\n  suite: demo\n  requirements: [DEMO-DOUBLE]\n  stepz: []\n');
    const typo = join('with-broken', 'typo.yaml');
    writeFileSync(join(tmp.dir, typo), OWN_CASE.replace('double-of-twenty-one', 'typo-case').replace('[DEMO-DOUBLE]', '[DEMO-DUBLE]'));
    const files = [broken, typo, join('with-broken', 'demo', `${id}.yaml`)].map((f) => join(tmp.dir, f));
    const before = Object.fromEntries(files.map((f) => [f, readFileSync(f, 'utf8')]));
    const res = await demoRun(['--cases', folder, '--report', 'json=broken.json']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${broken}:4:3: 0: unknown key "stepz"`);
    expect(res.stderr).toContain(`${typo}:4:18: suite demo has no requirement "DEMO-DUBLE" (did you mean "DEMO-DOUBLE"?)`);
    // nothing ran, and every file is as it was
    expect(existsSync(join(tmp.dir, 'broken.json'))).toBe(false);
    expect(res.stdout).not.toContain('Summary');
    for (const [f, text] of Object.entries(before)) expect(readFileSync(f, 'utf8')).toBe(text);
  });

  it('validate checks such a file with the suite its cases name', async () => {
    const validate = (f: string): Promise<CliResult> => runCli(['validate', '--suite-module', DEMO_MODULE, f], { cwd: tmp.dir });
    const typo = join(tmp.dir, 'typo.yaml');
    writeFileSync(typo, OWN_CASE.replace('[DEMO-DOUBLE]', '[DEMO-DUBLE]'));
    const [good, bad] = await Promise.all([validate(join('mine', 'doubles.yaml')), validate('typo.yaml')]);
    expect([good.code, good.stderr]).toEqual([0, '']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('typo.yaml:4:18: suite demo has no requirement "DEMO-DUBLE" (did you mean "DEMO-DOUBLE"?)');
  });
});
