/**
 * The right code for the right fault, end to end through the CLI: an answer that is not HTTP is
 * SG_TARGET_PROTOCOL; a typed check that meets an odd answer records a failure or a protocol
 * fault, never a suite-file or internal error; a YAML alias bomb in any file specgate reads is a
 * positioned exit 2, quickly; and a profile that cannot work (a base URL that is no URL, a
 * variable the cases read and the profile lacks, a user agent the cases need and the target
 * lacks) is exit 2 before anything runs.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { profileYaml } from '../../reference/oauth/server/standalone.js';
import { DEMO_MODULE, assertBuilt, caseOf, demoSection, readReport, reportOf, runCli, runDemo, tempDir, writeProfile, type CliResult, type JsonReport } from './cli.js';
import { hostilePlatform, platformVars, rawHttpServer, type Ending, type Hostile } from './hostile-targets.js';
import { runSlots } from './run-slots.js';

const OAUTH_MODULE = fromRoot('dist/suites/oauth/index.js');
const NOTES_MODULE = fromRoot('dist/examples/notes/suite.js');
const CONTRACT_MODULE = fromRoot('dist/src/engine/checks/contract.js');

const tmp = tempDir('specgate-codes-');
const servers: Hostile[] = [];
beforeAll(() => assertBuilt());
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  tmp.remove();
});

async function started(server: Promise<Hostile>): Promise<Hostile> {
  const s = await server;
  servers.push(s);
  return s;
}

/** No stack trace reaches the user for anything a target or a user's file does. */
function expectNoStack(run: CliResult): void {
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  expect(run.stdout).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  expect(run.stderr).not.toContain('bug in specgate');
}

/**
 * Each test below is one CLI run against a target of its own, so the groups whose tests share
 * nothing run them side by side, three at a time, filling each other's waits; the alias bombs,
 * whose tests time the run, keep to one at a time.
 */
const slot = runSlots(3);

let runs = 0;
/** A name no other test of this file uses, for its profile, report or folder. */
function unique(name: string): string {
  return `${name}-${++runs}`;
}

/** `specgate run` of the demo suite with its reports in a folder of its own. */
function runDemoAlone(args: string[]): ReturnType<typeof runDemo> {
  const dir = join(tmp.dir, unique('demo'));
  mkdirSync(dir);
  return slot(() => runDemo(dir, args));
}

/** `specgate run` of one suite module with a JSON report in a fresh folder. */
async function runSuite(module: string, suite: string, args: string[], env?: Record<string, string>): Promise<CliResult & { report: JsonReport | undefined; json: string }> {
  const json = join(tmp.dir, `${unique('run')}.json`);
  const res = await slot(() => runCli(['run', '--suite-module', module, '--suite', suite, '--seed', '7', '--report', `json=${json}`, ...args], { cwd: tmp.dir, ...(env ? { env } : {}) }));
  return { ...res, report: existsSync(json) ? readReport(json) : undefined, json };
}

/** A profile of the hostile oauth platform as the reference writes its own (clock hook and scripted agent on the bridge). */
function oauthProfile(name: string, vars: Record<string, unknown>, edit: (section: Record<string, unknown>) => void = () => undefined): string {
  const profile = JSON.parse(profileYaml(name, vars).replace(/^#.*\n/, '')) as { suites: { oauth: Record<string, unknown> } };
  edit(profile.suites.oauth);
  const file = join(tmp.dir, `${name}.yaml`);
  writeFileSync(file, JSON.stringify(profile, null, 2));
  return file;
}

describe('an answer that is not HTTP/1.1 is SG_TARGET_PROTOCOL, naming what is malformed', { concurrent: true }, () => {
  const scenarios: { name: string; bytes: string; ending?: Ending; says: RegExp }[] = [
    { name: 'bytes of another protocol instead of a status line', bytes: 'SSH-2.0-OpenSSH_9.6\r\n', says: /not valid HTTP\/1\.1: it does not start with a status line .*"SSH-2\.0-OpenSSH_9\.6\\r\\n"/ },
    { name: 'a status line whose status is not three digits', bytes: 'HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n', says: /not valid HTTP\/1\.1: the status line carries no valid 3-digit status code/ },
    { name: 'a control character in a header name', bytes: 'HTTP/1.1 200 OK\r\nX-Gr\u0001eeting: 1\r\nContent-Length: 0\r\n\r\n', says: /not valid HTTP\/1\.1: a header name holds a character .*"\\u0001eeting: 1/ },
    { name: 'a control character in a header value', bytes: 'HTTP/1.1 200 OK\r\nX-Greeting: he\u0007llo\r\nContent-Type: application/json\r\nContent-Length: 25\r\n\r\n{"message":"hello world"}', says: /not valid HTTP\/1\.1: a header value holds a control character .*"\\u0007llo/ },
    { name: 'a reset in the middle of the headers', bytes: 'HTTP/1.1 200 OK\r\nContent-Type: appl', ending: 'reset', says: /reset the connection after 35 bytes of its answer, before the answer was complete/ },
    { name: 'a close in the middle of the headers', bytes: 'HTTP/1.1 200 OK\r\nContent-Ty', ending: 'close', says: /closed the connection after 27 bytes of its answer, before the answer was complete/ },
  ];

  it.each(scenarios)('$name', async ({ bytes, ending, says }) => {
    const target = await started(rawHttpServer(bytes, ending));
    const profile = writeProfile(tmp.dir, unique('raw'), { suites: { demo: demoSection(target.url) } });
    const run = await runDemoAlone(['--target', profile, '--case', 'hello-world']);
    const c = caseOf(reportOf(run), 'hello-world');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_PROTOCOL']);
    expect(c.reason).toContain(`GET ${target.url}/hello?name=world`);
    expect(c.reason).toMatch(says);
    expect(run.code).toBe(3);
    expectNoStack(run);
  }, 30_000);

  it('a connection closed before any byte of an answer is still an unreachable target', async () => {
    const target = await started(rawHttpServer('', 'close'));
    const profile = writeProfile(tmp.dir, unique('silent-close'), { suites: { demo: demoSection(target.url) } });
    const run = await runDemoAlone(['--target', profile, '--case', 'hello-world']);
    const c = caseOf(reportOf(run), 'hello-world');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_UNREACHABLE']);
    expect(run.code).toBe(3);
  }, 30_000);
});

describe('a YAML alias bomb in any file specgate reads is a positioned exit 2, quickly', () => {
  /** Nine anchors, each nine aliases of the one before: a billion laughs, a dozen lines of text. */
  function laughs(indent: string): string {
    const lines = [`${indent}lol0: &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]`];
    for (let i = 1; i <= 9; i++) lines.push(`${indent}lol${i}: &lol${i} [${Array(9).fill(`*lol${i - 1}`).join(', ')}]`);
    return `${lines.join('\n')}\n`;
  }

  /** A copy of a suite's folder and a module that points the suite's code at it. */
  function suiteCopy(name: string, from: string, module: string): { dir: string; module: string } {
    const dir = join(tmp.dir, name);
    cpSync(fromRoot(from), dir, { recursive: true });
    const file = join(tmp.dir, `${name}.mjs`);
    writeFileSync(file, `import { suite as s } from ${JSON.stringify(pathToFileURL(module).href)};\nexport const suite = { ...s, dir: ${JSON.stringify(dir)} };\n`);
    return { dir, module: file };
  }

  /**
   * The run stopped at the file, at an alias of it, saying why, before anything ran (no report).
   * Not timed: a bomb that were expanded would not end within the test's time at all, and the
   * wide one runs in a process with too little memory to hold it.
   */
  function expectBombStopped(run: CliResult & { report?: JsonReport | undefined }, file: string, code: string): void {
    expect(run.code, run.stderr).toBe(2);
    // suite files are named relative to the folder specgate runs in, profiles and baselines absolute
    const shown = relative(tmp.dir, file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const m = new RegExp(`${shown}:(\\d+):(\\d+): [^\\n]*too many aliases`).exec(run.stderr);
    expect(m, run.stderr).not.toBeNull();
    const line = readFileSync(file, 'utf8').split('\n')[Number(m?.[1]) - 1] ?? '';
    expect(line.charAt(Number(m?.[2]) - 1), `${line} at column ${m?.[2]}`).toBe('*');
    expect(run.stderr).toContain(`[${code}]`);
    expect(run.report).toBeUndefined();
    expectNoStack(run);
  }

  it('in a cases file', async () => {
    const copy = suiteCopy('bomb-cases', 'test/fixtures/demo/suite', DEMO_MODULE);
    const file = join(copy.dir, 'cases', 'zz-bomb.yaml');
    writeFileSync(file, `- id: bomb\n  description: laughs\n  requirements: [DEMO-HELLO]\n  skip: never runs\n  vars:\n${laughs('    ')}`);
    const run = await runSuite(copy.module, 'demo', []);
    expectBombStopped(run, file, 'SG_SUITE_SYNTAX');
  }, 30_000);

  it('in a cases file large enough to be read in slices', async () => {
    const copy = suiteCopy('bomb-big-cases', 'test/fixtures/demo/suite', DEMO_MODULE);
    const file = join(copy.dir, 'cases', 'zz-bomb.yaml');
    const filler = Array.from({ length: 16_000 }, (_x, i) => `- id: filler-${i}\n  description: filler\n  requirements: [DEMO-HELLO]\n  skip: filler\n`).join('');
    writeFileSync(file, `${filler}- id: bomb\n  description: laughs\n  requirements: [DEMO-HELLO]\n  skip: never runs\n  vars:\n${laughs('    ')}`);
    expect(readFileSync(file).length).toBeGreaterThan(1024 * 1024);
    const run = await runSuite(copy.module, 'demo', []);
    expectBombStopped(run, file, 'SG_SUITE_SYNTAX');
  }, 30_000);

  it('in suite.yaml (read through the parse cache)', async () => {
    const copy = suiteCopy('bomb-suite-yaml', 'test/fixtures/demo/suite', DEMO_MODULE);
    const file = join(copy.dir, 'suite.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}x-laughs:\n${laughs('  ')}`);
    const run = await runSuite(copy.module, 'demo', []);
    expectBombStopped(run, file, 'SG_SUITE_SYNTAX');
  }, 30_000);

  it('in api.yaml (read through the parse cache)', async () => {
    const copy = suiteCopy('bomb-api-yaml', 'examples/notes/suite', NOTES_MODULE);
    const file = join(copy.dir, 'api.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}x-laughs:\n${laughs('  ')}`);
    const run = await runSuite(copy.module, 'notes', []);
    expectBombStopped(run, file, 'SG_SUITE_SYNTAX');
  }, 30_000);

  it('in a target profile, and in a baseline', async () => {
    const profile = join(tmp.dir, 'bomb-profile.yaml');
    writeFileSync(profile, `name: laughs\nsuites:\n  demo:\n    vars:\n      base_url: http://127.0.0.1:9\n      api_key: k\n${laughs('      ')}`);
    const byProfile = await runSuite(DEMO_MODULE, 'demo', ['--target', profile]);
    expectBombStopped(byProfile, profile, 'SG_CONFIG');
    const baseline = join(tmp.dir, 'bomb-baseline.yaml');
    writeFileSync(baseline, `expected-failures:\n  - id: DEMO-HELLO\n    reason: laughs\n    x-laughs:\n${laughs('      ')}`);
    const byBaseline = await runSuite(DEMO_MODULE, 'demo', ['--baseline', baseline]);
    expectBombStopped(byBaseline, baseline, 'SG_CONFIG');
  }, 30_000);

  it('given to specgate validate', async () => {
    const file = join(tmp.dir, 'bomb-validate.yaml');
    writeFileSync(file, `- id: bomb\n  description: laughs\n  requirements: [DEMO-HELLO]\n  skip: never runs\n  vars:\n${laughs('    ')}`);
    const run = await runCli(['validate', file], { cwd: tmp.dir });
    expectBombStopped(run, file, 'SG_SUITE_SYNTAX');
  }, 30_000);

  it('an alias inside the value it names', async () => {
    const profile = join(tmp.dir, 'bomb-self.yaml');
    writeFileSync(profile, `name: loop\nsuites:\n  demo:\n    vars:\n      base_url: http://127.0.0.1:9\n      api_key: k\n      loop: &loop [1, *loop]\n`);
    const run = await runSuite(DEMO_MODULE, 'demo', ['--target', profile]);
    expectBombStopped(run, profile, 'SG_CONFIG');
    expect(run.stderr).toContain('*loop');
  }, 30_000);

  it('many harmless aliases still load (the library\'s own count refused a thousand)', async () => {
    const profile = join(tmp.dir, 'many-aliases.yaml');
    const names = Array.from({ length: 1500 }, (_x, i) => `      n${i}: *key`).join('\n');
    writeFileSync(profile, `name: many\nsuites:\n  demo:\n    vars:\n      base_url: http://127.0.0.1:9\n      api_key: &key profile-key-0001\n${names}\n`);
    const run = await runCli(['validate', '--suite-module', DEMO_MODULE, profile], { cwd: tmp.dir });
    expect([run.code, run.stderr]).toEqual([0, '']);
  }, 30_000);

  it('a wide bomb the YAML library counts as few aliases, in a process with little memory', async () => {
    // one long list aliased 20 times, that list of lists aliased 20 times: 8 million values from 40 KB
    const leaf = Array(20_000).fill('1').join(',');
    const profile = join(tmp.dir, 'bomb-wide.yaml');
    writeFileSync(profile, `name: wide\nsuites:\n  demo:\n    vars:\n      base_url: http://127.0.0.1:9\n      api_key: k\n      a: &a [${leaf}]\n      b: &b [${Array(20).fill('*a').join(', ')}]\n      c: &c [${Array(20).fill('*b').join(', ')}]\n      d: *c\n`);
    const run = await runSuite(DEMO_MODULE, 'demo', ['--target', profile, '--case', 'hello-world'], { NODE_OPTIONS: '--max-old-space-size=96' });
    expectBombStopped(run, profile, 'SG_CONFIG');
  }, 60_000);
});

describe('a check that meets an odd answer records a failure or a protocol fault, never a harness error', { concurrent: true }, () => {
  const DEVICE = { device_code: 'dc-0001', user_code: 'WDJB-MJHT', verification_uri: 'https://example.test/device', expires_in: 900, interval: 5 };

  /** Runs one oauth case against a hostile platform and gives that case's result. */
  async function oauthCase(answers: Parameters<typeof hostilePlatform>[0], caseId: string, vars: Record<string, string> = {}): Promise<{ run: CliResult; c: ReturnType<typeof caseOf> }> {
    const platform = await started(hostilePlatform(answers));
    const profile = oauthProfile(unique(`hostile-${caseId}`), { ...platformVars(platform.url), ...vars });
    const run = await runSuite(OAUTH_MODULE, 'oauth', ['--target', profile, '--case', caseId, '--runs', '2']);
    return { run, c: caseOf(reportOf(run), caseId) };
  }

  it('a device authorization whose interval is not a number', async () => {
    const { run, c } = await oauthCase({ deviceCode: { ...DEVICE, interval: 'soon' }, token: { error: 'authorization_pending' } }, 'device-poll-timings-generated');
    // no poll can be timed by it: the case is blocked by the interval rule, which the run reports as the root
    expect([c.outcome, c.errorCode, c.blockedBy?.requirement]).toEqual(['skipped', null, 'OAUTH-DEVICE-INTERVAL']);
    expect(c.reason).toContain('interval "soon"');
    // the one case run judged nothing: not a pass
    expect(run.code).toBe(4);
    expectNoStack(run);
  }, 60_000);

  it('a device authorization whose interval no clock can wait', async () => {
    const { run, c } = await oauthCase({ deviceCode: { ...DEVICE, interval: 1e308 }, token: { error: 'authorization_pending' } }, 'device-poll-pending');
    expect([c.outcome, c.errorCode, c.blockedBy?.requirement]).toEqual(['skipped', null, 'OAUTH-DEVICE-INTERVAL']);
    expect(c.reason).toContain('interval 1e+308');
    expectNoStack(run);
  }, 60_000);

  it('a poll that answers expired_token long before the code expires', async () => {
    const { run, c } = await oauthCase({ deviceCode: DEVICE, token: { error: 'expired_token' } }, 'device-poll-timings-generated');
    // the finding belongs to a requirement this case does not judge: the case is blocked by it (that rule's own case fails it)
    expect([c.outcome, c.errorCode]).toEqual(['skipped', null]);
    expect((c as unknown as { blockedBy: { requirement: string } }).blockedBy.requirement).toBe('OAUTH-DEVICE-EXPIRED-TOKEN');
    expect(c.reason).toContain('blocked by OAUTH-DEVICE-EXPIRED-TOKEN');
    expect(c.reason).toContain('the device code expired before its expires_in had passed');
    expectNoStack(run);
  }, 60_000);

  it('an approval that hands out a code that is not text', async () => {
    const { run, c } = await oauthCase({ approve: { outcome: 'redirected', location: 'https://app.example.test/callback?code=x', code: { value: 'x' } } }, 'token-response-json');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_PROTOCOL']);
    expect(c.reason).toMatch(/form field "code" is "\$\{auth_code\}", which holds an object/);
    expectNoStack(run);
  }, 60_000);

  it('a platform whose web application has a loopback callback, judged by the named-host table', async () => {
    const { run, c } = await oauthCase({ approve: { outcome: 'shown-error' } }, 'redirect-table-named-host', { callback_url: 'http://127.0.0.1:8080/callback' });
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_CONFIG']);
    expect(c.reason).toContain('http://127.0.0.1:8080/callback is on a loopback literal');
    expectNoStack(run);
  }, 60_000);

  it('an API whose create answer has no id for the steps after it', async () => {
    const api = await started(hostilePlatform({}));
    const run = await runSuite(NOTES_MODULE, 'notes', ['--notes', api.url, '--case', 'note-read-back']);
    const c = caseOf(reportOf(run), 'note-read-back');
    // creating the note is the route rule's precondition: an answer without the note stops the case there, blocked by that rule
    expect([c.outcome, c.errorCode]).toEqual(['skipped', null]);
    expect(c.reason).toMatch(/^blocked by NOTES-ROUTES: a step the case rests on did not hold: /);
    expectNoStack(run);
  }, 60_000);

  it('a check that throws a TypeError is a harness bug named after the check', async () => {
    const dir = join(tmp.dir, 'buggy-suite');
    cpSync(fromRoot('test/fixtures/demo/suite'), dir, { recursive: true });
    writeFileSync(join(dir, 'cases', 'zz-buggy.yaml'), '- id: buggy-check\n  description: a check with a bug\n  requirements: [DEMO-HELLO]\n  steps:\n    - check: demo.buggy\n');
    const module = join(tmp.dir, 'buggy-demo.mjs');
    writeFileSync(
      module,
      [
        `import { suite as demo } from ${JSON.stringify(pathToFileURL(DEMO_MODULE).href)};`,
        `import { defineCheck } from ${JSON.stringify(pathToFileURL(CONTRACT_MODULE).href)};`,
        'const buggy = defineCheck({ description: "reads a field of nothing", args: { type: "object", additionalProperties: false, properties: {} }, judges: "case",',
        '  async run(ctx) { const res = await ctx.request({ method: "GET", url: `${ctx.vars.base_url}/hello?name=x`, accept: "json" }); return res.body.missing.field; } });',
        `export const suite = { ...demo, dir: ${JSON.stringify(dir)}, checks: { ...demo.checks, buggy } };`,
      ].join('\n'),
    );
    const run = await runSuite(module, 'demo', ['--case', 'buggy-check']);
    const c = caseOf(reportOf(run), 'buggy-check');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_INTERNAL']);
    expect(c.reason).toContain('check demo.buggy failed with a bug in specgate or in the suite');
    expect(c.reason).toContain("TypeError: Cannot read properties of undefined (reading 'field')");
    expect(run.code).toBe(3);
  }, 60_000);
});

describe('a profile that cannot work is exit 2 before anything runs, naming the profile key and what to do', { concurrent: true }, () => {
  /** Where `needle` starts in `file`, as `line:column`. */
  function at(file: string, needle: string): string {
    const text = readFileSync(file, 'utf8');
    const before = text.slice(0, text.indexOf(needle)).split('\n');
    expect(text).toContain(needle);
    return `${before.length}:${(before[before.length - 1]?.length ?? 0) + 1}`;
  }

  /** Stopped at load: exit 2, nothing ran, no report, no stack. */
  function expectStopped(run: CliResult & { report: JsonReport | undefined }): void {
    expect(run.code, run.stderr).toBe(2);
    expect(run.report).toBeUndefined();
    expect(run.stdout).not.toContain('passed');
    expect(run.stderr).toContain('[SG_CONFIG]');
    expectNoStack(run);
  }

  it('a base URL variable that is not a URL (oauth auth_url)', async () => {
    const platform = await started(hostilePlatform({}));
    const profile = oauthProfile('bad-auth-url', { ...platformVars(platform.url), auth_url: 'not a url' });
    const run = await runSuite(OAUTH_MODULE, 'oauth', ['--target', profile]);
    expectStopped(run);
    expect(run.stderr).toContain(`${profile}:${at(profile, '"auth_url"')}: vars.auth_url is "not a url", which is not an absolute http(s) URL`);
    expect(run.stderr).toMatch(/yet it is the base of requests \(case [a-z0-9-]+ at .*\.yaml:\d+:\d+/);
    expect(run.stderr).toContain('give the base URL of the target, such as https://');
  }, 60_000);

  it('an API table whose base resolves to no URL (--notes)', async () => {
    const run = await runSuite(NOTES_MODULE, 'notes', ['--notes', 'localhost-without-scheme']);
    expectStopped(run);
    expect(run.stderr).toContain('the target (--notes localhost-without-scheme) sets api_url to "localhost-without-scheme", which is not an absolute http(s) URL');
    expect(run.stderr).toMatch(/the base of the API table .*api\.yaml \("\$\{api_url\}"\)/);
  }, 60_000);

  it('a variable the cases read that the profile does not set', async () => {
    const profile = writeProfile(tmp.dir, 'no-base-url', { suites: { demo: { vars: { api_key: 'profile-key-0001' }, exec: demoSection('http://127.0.0.1:9')['exec'] } } });
    const run = await runDemoAlone(['--target', profile]);
    expectStopped({ ...run, report: run.report });
    expect(run.stderr).toContain(`${profile}:${at(profile, 'vars:')}: suites.demo.vars sets no base_url, which case `);
    expect(run.stderr).toMatch(/which case [a-z-]+ reads \(.*\.yaml:\d+:\d+\), and \d+ more cases read it too/);
    expect(run.stderr).toContain('set vars.base_url (Base URL of the greeting service');
  }, 60_000);

  it('a case that needs a user agent, and a target with none', async () => {
    const platform = await started(hostilePlatform({}));
    const profile = oauthProfile('no-agent', platformVars(platform.url), (section) => delete section['agent']);
    const run = await runSuite(OAUTH_MODULE, 'oauth', ['--target', profile]);
    expectStopped(run);
    expect(run.stderr).toContain(`${profile}:${at(profile, '"oauth"')}: suites.oauth has no agent:, and case`);
    expect(run.stderr).toMatch(/needs a user agent to "[a-z-]+" \(.*\.yaml:\d+:\d+\)/);
    expect(run.stderr).toMatch(/the cases perform .*"approve"/);
    expect(run.stderr).toContain('add agent: to the target profile (mode: scripted with the actions the cases use, or mode: interactive)');
  }, 60_000);

  it('a scripted agent without an action the cases use', async () => {
    const platform = await started(hostilePlatform({}));
    const profile = oauthProfile('no-approve', platformVars(platform.url), (section) => {
      const agent = section['agent'] as { actions: Record<string, unknown> };
      delete agent.actions['approve'];
    });
    const run = await runSuite(OAUTH_MODULE, 'oauth', ['--target', profile]);
    expectStopped(run);
    expect(run.stderr).toContain(`${profile}:${at(profile, '"agent"')}: the scripted agent of suites.oauth has no "approve" action, which case`);
    expect(run.stderr).toContain('add it under agent.actions');
  }, 60_000);

  it('a browser agent without an action the cases use', async () => {
    const platform = await started(hostilePlatform({}));
    const profile = oauthProfile('browser-no-approve', platformVars(platform.url), (section) => {
      section['agent'] = { mode: 'browser', actions: { deny: [{ goto: '${verification_uri}' }, { click: 'button[name=deny]' }] } };
    });
    const run = await runSuite(OAUTH_MODULE, 'oauth', ['--target', profile]);
    expectStopped(run);
    expect(run.stderr).toContain(`${profile}:${at(profile, '"agent"')}: the browser agent of suites.oauth has no "approve" action, which case`);
    expect(run.stderr).toContain('add it under agent.actions (the page steps that make a user approve on your side)');
  }, 60_000);
});
