/**
 * Declared variables and `specgate init`, through the command line: `list --vars` says which
 * variables a profile must set, with examples and the cases that need each (derived from the
 * cases); a profile without the required ones stops before anything runs; `init` writes a
 * commented profile which, filled in with the values a served reference prints, validates and
 * runs the suite against that reference with exit 0, the summary naming what the unset optional
 * variables skipped. Needs `npm run build`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../../src/targets/free-port.js';
import { suite as oauthSuite } from '../../suites/oauth/index.js';
import { loadedSuite } from '../helpers/suite-facts.js';
import { assertBuilt, readReport, runCli, tempDir, writeProfile } from './cli.js';
import { runSlots } from './run-slots.js';
import { serveReference, type ServedReference } from './served-reference.js';

interface ListedVar {
  name: string;
  required: boolean;
  secret: boolean;
  example?: unknown;
  cases: string[];
  skips: string[];
}

/** What the oauth suite declares, as loaded: the CLI's lists and counts are held to it. */
const oauth = loadedSuite(oauthSuite);
/** The variables `suite.yaml` marks required, in its order. */
const REQUIRED = Object.entries(oauth.vars ?? {}).filter(([, v]) => v.required === true).map(([name]) => name);
/** The cases that list a variable under `needs:` (skipped while it is unset), in suite order. */
const needing = (name: string): string[] => oauth.cases.filter((c) => (c.needs ?? []).includes(name)).map((c) => c.id);
const CLIENT_CASES = needing('client_command');
const LOOPBACK_CASES = needing('loopback_client_id');

const tmp = tempDir('specgate-init-profile-');
afterAll(() => tmp.remove());

/**
 * The tests of each group below share nothing but the built CLI (each writes files of its own),
 * so they run side by side, three CLI runs at a time, filling each other's waits.
 */
const slot = runSlots(3);
const cli = (args: string[], opts: { cwd: string; env?: Record<string, string> }): ReturnType<typeof runCli> => slot(() => runCli(args, opts));

/**
 * The served oauth reference `init` is tested against, started with the file so that it gets
 * ready while the first group runs.
 */
let serving: Promise<ServedReference> | undefined;
beforeAll(() => {
  assertBuilt();
  serving = serveReference(['oauth'], tmp.dir);
  // handled here so a failure to start fails the group that needs it, when it asks
  serving.catch(() => undefined);
});

describe('declared variables: required, examples, the cases that need them', { concurrent: true }, () => {
  it('list --vars shows whether a profile must set each, an example, and the cases it skips when unset', async () => {
    const [res, json] = await Promise.all([cli(['list', '--suite', 'oauth', '--vars'], { cwd: tmp.dir }), cli(['list', '--suite', 'oauth', '--vars', '--json'], { cwd: tmp.dir })]);
    expect(res.code).toBe(0);
    // the API table (api.yaml, for matching recorded traffic) is based on it too
    expect(res.stdout).toMatch(/^ {2}auth_url — Base URL of the platform's browser and OAuth endpoints .*\n {6}read by the API table \(every operation\) and \d+ case\(s\): .*\n {6}required: a target profile must set it; e\.g\. "https:\/\/auth\.acme\.test"$/m);
    expect(LOOPBACK_CASES.length).toBeGreaterThan(0);
    expect(res.stdout).toMatch(new RegExp(`^ {2}loopback_client_id — .*\\n {6}read by ${LOOPBACK_CASES.length} case\\(s\\): .*\\n {6}optional; e\\.g\\. "Iv1\\.loopback00000001"; unset, it skips ${LOOPBACK_CASES.length} case\\(s\\): ${LOOPBACK_CASES.join(', ')}$`, 'm'));
    // a secret's example is never shown
    expect(res.stdout).toMatch(/^ {2}client_secret \(secret\) — .*\n {6}read by .*\n {6}required: a target profile must set it$/m);

    const vars = (JSON.parse(json.stdout) as { vars: ListedVar[] }[])[0]?.vars ?? [];
    const byName = new Map(vars.map((v) => [v.name, v]));
    expect(REQUIRED.length).toBeGreaterThan(0);
    expect(vars.filter((v) => v.required).map((v) => v.name)).toEqual(REQUIRED);
    // derived from the cases: every case the client command skips lists it under needs, and reads nothing else of the kind
    const client = byName.get('client_command');
    expect(CLIENT_CASES.length).toBeGreaterThan(0);
    expect(client?.skips).toEqual(CLIENT_CASES);
    expect(client?.cases).toEqual(client?.skips);
    expect(byName.get('auth_url')?.skips).toEqual([]);
    expect(byName.get('auth_url')?.cases).toContain('device-verification-uri');
  });

  it('a profile without required variables stops before anything runs (exit 2), naming them, their cases and what to add', async () => {
    const given = { api_url: 'http://127.0.0.1:9/api', client_id: 'app', callback_url: 'http://127.0.0.1:9/cb', device_client_id: 'dev', user_login: 'me' };
    const profile = writeProfile(tmp.dir, 'partial', { name: 'partial', suites: { oauth: { vars: given } } });
    const json = join(tmp.dir, 'partial.json');
    const res = await cli(['run', '--suite', 'oauth', '--target', profile, '--report', `json=${json}`], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${profile}:`);
    expect(res.stderr).toContain(`suites.oauth.vars lacks ${REQUIRED.filter((name) => !(name in given)).length} required variables:`);
    expect(res.stderr).toMatch(/^ {2}auth_url — Base URL of the platform's browser and OAuth endpoints .*; needed by \d+ selected cases: device-code-is-forty-characters, /m);
    expect(res.stderr).toMatch(/^ {2}client_secret — That application's client secret; needed by \d+ selected cases: /m);
    expect(res.stderr).toMatch(/^ {2}disabled_device_client_id — .*; needed by 2 selected cases: device-flow-disabled, device-poll-flow-disabled$/m);
    expect(res.stderr).toContain('add them under suites.oauth.vars, with your values:\n  auth_url: <fill in>   # e.g. "https://auth.acme.test"\n  client_secret: ${env:OAUTH_CLIENT_SECRET}\n  disabled_device_client_id: <fill in>');
    expect(res.stderr).toContain('`specgate init oauth` writes a whole profile');
    // one message per variable: the unset reads of the same variables are not reported again
    expect(res.stderr).not.toMatch(/sets no auth_url/);
    expect(existsSync(json)).toBe(false);
  });

  it('a required variable no selected case needs does not stop the run', async () => {
    const port = await freePort();
    const profile = writeProfile(tmp.dir, 'one-case', { name: 'one-case', suites: { oauth: { vars: { auth_url: `http://127.0.0.1:${port}` } } } });
    const json = join(tmp.dir, 'one-case.json');
    const res = await cli(['run', '--suite', 'oauth', '--target', profile, '--case', 'authorize-preflight-not-granted', '--report', `json=${json}`], { cwd: tmp.dir });
    // the case reads auth_url only: the other required variables are not asked for, and the case
    // runs (nobody listens on the port: the target fault is exit 3)
    expect(res.stderr).not.toMatch(/required variable/);
    expect(res.code).toBe(3);
    expect(readReport(json).suites[0]?.cases.map((c) => [c.id, c.outcome])).toEqual([['authorize-preflight-not-granted', 'errored']]);
  });
});

describe('specgate init', { concurrent: true }, () => {
  let served: ServedReference;
  beforeAll(async () => {
    if (!serving) throw new Error('the served reference was not started');
    served = await serving;
  }, 60_000);
  afterAll(async () => {
    expect(await served.stop()).toBe(0);
  });

  it('writes a commented profile that, filled in from a served reference, validates and runs (exit 0)', async () => {
    const file = join(tmp.dir, 'oauth-profile.yaml');
    const init = await cli(['init', 'oauth', '--out', file], { cwd: tmp.dir });
    expect([init.code, init.stderr]).toEqual([0, `specgate: wrote ${file}: fill in its ${REQUIRED.length} required variables (marked REQUIRED), then \`specgate validate ${file}\`\n`]);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# yaml-language-server: \$schema=\S+target-profile\.schema\.json$/m);
    // every declared variable with its description; required ones marked and left to fill in
    expect(text).toMatch(/^ {6}# REQUIRED\. Base URL of the platform's browser and OAuth endpoints[^\n]*\n(?: {6}#[^\n]*\n)* {6}auth_url: "<fill in>"$/m);
    expect(text).toMatch(/^ {6}# REQUIRED, secret\. That application's client secret\. Secret: read from the environment\n {6}# variable OAUTH_CLIENT_SECRET\.[^\n]*\n {6}client_secret: "\$\{env:OAUTH_CLIENT_SECRET\}"$/m);
    // optional ones commented out, with their example and the cases skipped without them
    expect(text).toMatch(/^ {6}# optional\. That user's numeric ID[^\n]*\n(?: {6}#[^\n]*\n)* {6}# user_id: 1001$/m);
    const prose = text.replace(/\n {6}# /g, ' ');
    const clients = CLIENT_CASES.length;
    expect(prose).toMatch(new RegExp(`The client application under test \\(--client\\): a command line, or a list of argv words\\. E\\.g\\. "node my-oauth-app\\.js"\\. Needed by ${clients} cases\\. Unset, ${clients} cases are skipped: ${CLIENT_CASES[0] ?? ''}, `));
    // commented clock and headers blocks; the agent written out, since the cases need one
    expect(text).toMatch(/^ {4}# clock:\n {4}# {3}advance: \{ method: POST, url: "[^"]+", json: \{ ms: "\$\{ms\}" \} \}$/m);
    expect(text).toMatch(/^ {4}# headers:$/m);
    expect(text).toMatch(/^ {4}agent:\n {6}mode: scripted\n {6}actions:$/m);
    expect(text).toMatch(/^ {8}approve:\n {10}- request: \{ method: POST, url: "\$\{agent_bridge_url\}\/approve", json: \{ query: "\$\{query\}" \} \}$/m);

    // as written it is not ready: validate names the placeholders (exit 2); filled in from what
    // the served reference printed, it validates and runs. The three go side by side.
    const env = { OAUTH_CLIENT_SECRET: served.printed['client_secret'] ?? '' };
    const marked = [...text.matchAll(/^ {6}# REQUIRED[^\n]*\n(?: {6}#[^\n]*\n)* {6}([a-z_]+): /gm)].map((m) => m[1]);
    const filled: string[] = [];
    const ready = text.replace(/^( {6})([a-z_]+): "<fill in>"$/gm, (_all, indent: string, name: string) => {
      filled.push(name);
      const value = served.printed[name];
      if (value === undefined) throw new Error(`the served reference printed no ${name}`);
      return `${indent}${name}: ${JSON.stringify(value)}`;
    });
    expect(filled.sort()).toEqual([...marked.filter((n) => n !== 'client_secret')].sort());
    expect(filled).toContain('agent_bridge_url');
    const readyFile = join(tmp.dir, 'oauth-ready.yaml');
    writeFileSync(readyFile, ready);
    expect(parse(ready)).toMatchObject({ suites: { oauth: { vars: { auth_url: served.printed['auth_url'] } } } });

    const json = join(tmp.dir, 'init-run.json');
    const [unfilled, valid, run] = await Promise.all([
      cli(['validate', file], { cwd: tmp.dir, env }),
      cli(['validate', readyFile], { cwd: tmp.dir, env }),
      cli(['run', '--suite', 'oauth', '--target', readyFile, '--seed', '3', '--report', `json=${json}`], { cwd: tmp.dir, env }),
    ]);
    expect(unfilled.code).toBe(2);
    expect(unfilled.stderr).toMatch(/oauth-profile\.yaml:\d+:\d+: vars\.auth_url of suite oauth is still "<fill in>"/);
    expect([valid.code, valid.stderr]).toEqual([0, '']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = readReport(json);
    expect(report.requirements.filter((r) => r.status === 'failed')).toEqual([]);
    expect(report.suites[0]?.cases.filter((c) => c.outcome === 'passed').length).toBeGreaterThan(30);
    // the unset optional variables are named in the summary with the cases they skipped
    expect(run.stdout).toMatch(new RegExp(`warning: optional variable client_command is not set in suites\\.oauth\\.vars; ${CLIENT_CASES.length} cases skipped without it: ${CLIENT_CASES[0] ?? ''}, `));
    expect(run.stdout).toMatch(new RegExp(`warning: optional variables loopback_client_id, loopback_callback_url are not set in suites\\.oauth\\.vars; ${LOOPBACK_CASES.length} cases skipped without them: ${LOOPBACK_CASES.join(', ')}`));
    expect(run.stdout.indexOf('warning: optional variable')).toBeLessThan(run.stdout.indexOf('Summary ('));
  }, 120_000);

  it('never replaces a profile without --force, and prints when no file is given', async () => {
    const file = join(tmp.dir, 'kept.yaml');
    writeFileSync(file, 'name: filled in by hand\n');
    const [again, printed, unknown] = await Promise.all([cli(['init', 'oauth', '--out', file], { cwd: tmp.dir }), cli(['init', 'plugin'], { cwd: tmp.dir }), cli(['init', 'oath'], { cwd: tmp.dir })]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${file} already exists; give another --out, or --force to replace it`);
    expect(readFileSync(file, 'utf8')).toBe('name: filled in by hand\n');
    expect(printed.code).toBe(0);
    // no variable of the plugin suite is required: the vars mapping stays valid YAML with all commented out
    expect(parse(printed.stdout)).toEqual({ name: 'my-plugin-target', suites: { plugin: { vars: {} } } });
    expect(printed.stdout).toMatch(/^ {6}# plugin_command: "\/usr\/bin\/protoc-gen-go"$/m);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no suite named "oath" \(did you mean "oauth"\?\)/);
  });
});
