/**
 * The other commands on the demo suite: `list` (requirements with coverage, cases), a command
 * line that names its suites (only those load, flags of the others still understood),
 * `validate` (suite files, profiles, baselines; good and bad), `serve` (starts the reference,
 * prints its URL, answers, stops on SIGTERM).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { builtinSuiteNames } from '../../suites/index.js';
import { BIN, DEMO_MODULE, assertBuilt, runCli, tempDir, writeProfile } from './cli.js';
import { DEMO } from './demo-verdicts.js';

const tmp = tempDir();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

describe('specgate list', () => {
  it('lists every requirement with its level and coverage, and every case with its file', async () => {
    const res = await runCli(['list', '--suite-module', DEMO_MODULE, '--suite', 'demo'], { cwd: tmp.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^demo — greeting service \\(engine self-test\\): ${DEMO.requirements.length} requirements, ${DEMO.cases.length} cases$`, 'm'));
    expect(res.stdout).toMatch(/^ {4}DEMO-HELLO \(MUST\) — hello-world, hello-empty-name$/m);
    expect(res.stdout).toMatch(/^ {4}DEMO-VERSION-HEADER \(SHOULD\) — version-header$/m);
    expect(res.stdout).toMatch(/^ {4}DEMO-REQUEST-LOG \(MUST\) — excluded: the service's logs cannot be observed from outside$/m);
    expect(res.stdout).toMatch(/^ {4}DEMO-FAREWELL \(MAY\) — NOT COVERED$/m);
    expect(res.stdout).toMatch(/^ {4}token-expiry \[DEMO-TOKEN-EXPIRY\] \{time-bound\} {2}\S*test\/fixtures\/demo\/suite\/cases\/tokens\.yaml:\d+$/m);
    expect(res.stdout).toContain('1 requirement(s) have no case and no exclusion: DEMO-FAREWELL');
  });

  it('--json gives the same in a machine-readable form', async () => {
    const res = await runCli(['list', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--json'], { cwd: tmp.dir });
    expect(res.code).toBe(0);
    const [suite] = JSON.parse(res.stdout) as { name: string; requirements: { id: string; level: string }[]; cases: { id: string; requirements: string[] }[] }[];
    expect(suite?.name).toBe('demo');
    expect(suite?.requirements.map((r) => r.id)).toEqual(DEMO.requirements.map((r) => r.id));
    expect(suite?.cases.find((c) => c.id === 'name-echo')?.requirements).toEqual(['DEMO-HELLO-CASE', 'DEMO-HELLO-UNICODE']);
  });

  it('an unknown suite is a usage error (exit 2)', async () => {
    const res = await runCli(['list', '--suite-module', DEMO_MODULE, '--suite', 'nope'], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/no suite named "nope"/);
    // every suite there is is listed, though the command named one
    expect(res.stderr).toContain(`known suites: ${[...builtinSuiteNames, 'demo'].join(', ')}`);
  });
});

describe('a command line that names its suites', () => {
  it('still takes the target flag of a suite it did not name (loaded then), and warns that it is not used', async () => {
    const res = await runCli(['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--case', 'hello-world', '--plugin', '/bin/true', '--report', `json=${join(tmp.dir, 'named.json')}`], { cwd: tmp.dir });
    expect(res.stderr).not.toMatch(/unknown option/);
    expect(res.code).toBe(0);
    // not used, and said so
    expect(res.stdout).toContain('warning: --plugin is a target flag of suite plugin, which this run does not select (--suite demo): it is not used; add plugin to --suite to judge it');
  });

  it('a flag no suite has is refused as before', async () => {
    const res = await runCli(['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--no-such-flag'], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown option '--no-such-flag'/);
  });
});

describe('specgate validate', () => {
  it('accepts the demo suite files', async () => {
    const files = ['requirements.yaml', 'cases/greeting.yaml', 'cases/numbers.yaml'].map((f) => fromRoot('test/fixtures/demo/suite', f));
    const res = await runCli(['validate', '--suite-module', DEMO_MODULE, ...files], { cwd: tmp.dir });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.match(/^ok {2}/gm)).toHaveLength(3);
  });

  it('rejects a case file with an unknown key, naming file:line:column (exit 2)', async () => {
    const file = join(tmp.dir, 'bad-cases.yaml');
    writeFileSync(file, '- id: some-case\n  requirements: [DEMO-HELLO]\n  steps:\n    - request: { url: "http://127.0.0.1/" }\n      expekt: { status: 200 }\n');
    const res = await runCli(['validate', file], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${file}:5:7: `);
    expect(res.stderr).toMatch(/unknown key "expekt"/);
  });

  it('accepts a good target profile and rejects one with an unknown key', async () => {
    // the demo suite is not built in: validate, like run, is given its module
    const good = writeProfile(tmp.dir, 'good-profile', { suites: { demo: { vars: { base_url: 'http://127.0.0.1:1', api_key: 'k' } } } });
    const bad = writeProfile(tmp.dir, 'bad-profile', { suites: { demo: { varz: { base_url: 'http://127.0.0.1:1' } } } });
    expect((await runCli(['validate', '--suite-module', DEMO_MODULE, good], { cwd: tmp.dir })).code).toBe(0);
    const res = await runCli(['validate', '--suite-module', DEMO_MODULE, bad], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/\[SG_CONFIG\].*bad-profile\.yaml:\d+:\d+: .*varz/);
    // without the module, the section names a suite specgate does not know
    const unknown = await runCli(['validate', good], { cwd: tmp.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('suites.demo names no suite specgate knows');
  });

  it('accepts a good baseline and rejects one with a bad expiry date', async () => {
    const good = join(tmp.dir, 'good-baseline.yaml');
    const bad = join(tmp.dir, 'bad-baseline.yaml');
    writeFileSync(good, 'expected-failures:\n  - { id: DEMO-HELLO, reason: known, expires: "2999-12-31" }\n');
    writeFileSync(bad, 'expected-failures:\n  - { id: DEMO-HELLO, reason: known, expires: "next week" }\n');
    expect((await runCli(['validate', good], { cwd: tmp.dir })).code).toBe(0);
    const res = await runCli(['validate', bad], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/bad-baseline\.yaml:2:\d+: .*expires/);
  });
});

describe('specgate serve', () => {
  it('prints the reference URL, answers on it (clock hook included) and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', 'demo', '--suite-module', DEMO_MODULE], { cwd: tmp.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const m = /^ {2}base_url: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        void exited.then((code) => reject(new Error(`serve exited early (${String(code)}): ${err}`)));
      });
      expect(out).toMatch(/^specgate: serving the demo reference/m);
      const hello = await fetch(`${url}/hello?name=serve`);
      expect(hello.status).toBe(200);
      expect(hello.headers.get('x-demo-version')).toBe('1.0');
      expect(await hello.json()).toEqual({ message: 'hello serve' });
      const advanced = await fetch(`${url}/__clock/advance`, { method: 'POST', body: JSON.stringify({ ms: 1000 }) });
      expect(advanced.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(out).toMatch(/specgate: stopped\n$/);
  });
});
