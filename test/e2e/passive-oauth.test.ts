/**
 * The oauth suite judged from a recording, end to end: the reference application runs two web
 * flows and a device flow against the reference platform through the traffic recorder of
 * `specgate record` (credentials masked as it masks them), the user's browser going through it
 * too; the CLI judges the HAR file. The recording passes everything it can judge, server and
 * client side; planted deviations, one per kind the rules judge, fail exactly their requirements.
 *
 * Needs `npm run build` (the CLI and the reference application run from dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTable } from '../../src/engine/api/table.js';
import { matchRecording } from '../../src/engine/passive/match-recording.js';
import { passiveView } from '../../src/engine/passive/passive-rules.js';
import { HarLog } from '../../src/targets/har/har-writer.js';
import { loadHar } from '../../src/targets/har/load-har.js';
import { startTrafficRecorder } from '../../src/targets/har/traffic-recorder.js';
import { clientEnvVars, type ClientEnv } from '../../reference/oauth/client/contract.js';
import { referenceClientScript } from '../../reference/oauth/client/command.js';
import { seededDirectory } from '../../reference/oauth/model/directory.js';
import { ReferenceUserAgent } from '../../reference/oauth/server/agent.js';
import { findAuthorizeUrl } from '../../suites/oauth/checks/client-web-run.js';
import { startClientPlatform, type ClientPlatform } from '../../suites/oauth/checks/client-platform.js';
import { suite } from '../../suites/oauth/index.js';
import { OAUTH_PASSIVE_RULES } from '../../suites/oauth/passive/index.js';
import { judgeHar } from '../helpers/har-judging.js';
import { expectReadmeRecordingCounts } from '../helpers/recording-counts.js';
import { loadedSuite } from '../helpers/suite-facts.js';
import { failedRequirements } from '../helpers/verdicts.js';
import { assertBuilt, statusMap, tempDir } from './cli.js';

/** A HAR entry as the plants below change it. */
interface Entry {
  startedDateTime: string;
  request: { method: string; url: string; queryString?: { name: string; value: string }[]; postData?: { mimeType: string; text: string } };
  response: { status: number; headers: { name: string; value: string }[]; content: { mimeType: string; text?: string; size: number } };
}

/** The device flow's interval (s): short, so the recording takes seconds; its third poll is answered slow_down (interval 6). */
const INTERVAL = 1;
const SLOW_DOWN_AT = 3;

/** Runs the reference application with `env` until it exits; `onOutput` sees its output as it comes. */
function launch(env: Record<string, string>, onOutput: (text: string) => void): { child: ChildProcess; done: Promise<number | null> } {
  const child = spawn(process.execPath, [referenceClientScript()], { env: { ...process.env, BROWSER: 'echo', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (b: Buffer) => {
    out += b.toString();
    onOutput(out);
  });
  child.stderr?.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, done };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** One web flow: the application prints the authorization URL, the user approves through the recorder, the redirect goes to the application. */
async function webFlow(env: Record<string, string>, user: ReferenceUserAgent): Promise<void> {
  let url: URL | undefined;
  const app = launch(env, (out) => (url ??= findAuthorizeUrl(out)));
  const printed = await until('the authorization URL', () => url);
  const consent = await user.perform('approve', { query: Object.fromEntries(printed.searchParams) });
  if (!consent.location) throw new Error(`the reference platform did not redirect: ${JSON.stringify(consent)}`);
  await (await request(consent.location)).body.text();
  expect(await app.done).toBe(0);
}

/** The device flow: the user approves after the poll answered slow_down; the next poll gets the token. */
async function deviceFlow(env: Record<string, string>, platform: ClientPlatform, user: ReferenceUserAgent, recorderUrl: string): Promise<void> {
  const app = launch(env, () => undefined);
  const issued = await until('a device code', () => platform.log.since(0).find((e) => e.path === '/login/device/code' && e.status === 200));
  const answer = JSON.parse(issued.response) as { device_code: string; user_code: string };
  await until('the slow_down poll', () => (platform.device.pollCount(answer.device_code) >= SLOW_DOWN_AT ? true : undefined));
  const approved = await user.perform('approve-device', { user_code: answer.user_code, verification_uri: `${recorderUrl}/login/device` });
  expect(approved.outcome).toBe('authorized');
  expect(await app.done).toBe(0);
}

/** The recording: two web flows (two states to compare) and a device flow, each as the reference application runs it. */
async function record(dir: string): Promise<Entry[]> {
  const platform = await startClientPlatform({ flow: 'web', interval: INTERVAL, script: { slowDownAtPoll: SLOW_DOWN_AT }, toleranceMs: 250, seed: 7 });
  const har = new HarLog(join(dir, 'recorded.har'), { name: 'passive-oauth test', version: '1' }, 1 << 20);
  const recorder = await startTrafficRecorder({ upstream: new URL(platform.server.authUrl), maxBody: 1 << 20, onExchange: (x) => har.add(x) });
  try {
    const person = seededDirectory().users[0];
    const user = new ReferenceUserAgent(recorder.url, { login: person?.login ?? '', password: person?.password ?? '' });
    const env = (flow: ClientEnv['flow']): Record<string, string> => clientEnvVars({ ...platform.env, flow, authUrl: recorder.url, apiUrl: `${recorder.url}/api` });
    await webFlow(env('web'), user);
    await webFlow(env('web'), user);
    await deviceFlow(env('device'), platform, user, recorder.url);
    // a single-page application's browser asking whether it may call the authorization endpoint (the case authorize-preflight-not-granted's request)
    await (await request(`${recorder.url}/login/oauth/authorize`, { method: 'OPTIONS', headers: { origin: 'http://spa.example.test', 'access-control-request-method': 'GET' } })).body.text();
  } finally {
    await recorder.stop();
    await platform.stop();
  }
  return har.document().log['entries'] as Entry[];
}

// ---------------------------------------------------------------- editing a recording
const path = (e: Entry): string => new URL(e.request.url).pathname;
const answer = (e: Entry): Record<string, unknown> => JSON.parse(e.response.content.text ?? '{}') as Record<string, unknown>;
function setAnswer(e: Entry, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  e.response.content = { ...e.response.content, text, size: text.length };
  e.response.headers = e.response.headers.filter((h) => h.name.toLowerCase() !== 'content-length');
}
function setQuery(e: Entry, name: string, value: string | undefined): void {
  const u = new URL(e.request.url);
  if (value === undefined) u.searchParams.delete(name);
  else u.searchParams.set(name, value);
  e.request.url = u.toString();
  e.request.queryString = [...u.searchParams].map(([n, v]) => ({ name: n, value: v }));
}
const formOf = (e: Entry): URLSearchParams => new URLSearchParams(e.request.postData?.text ?? '');
const location = (e: Entry): string | undefined => e.response.headers.find((h) => h.name.toLowerCase() === 'location')?.value;

/** The rule that judges the platform only on an exchange that breaks a rule, which a correct application never sends. */
const ON_DEVIATIONS = ['code-exchanges'];
const RULED = [...new Set(Object.values(OAUTH_PASSIVE_RULES).flatMap((r) => r.requirements))].sort();

describe('passive target: the oauth suite judges a recording of the reference application and platform', () => {
  const tmp = tempDir('specgate-passive-oauth-');
  let entries: Entry[];
  let reference: Awaited<ReturnType<typeof judgeHar>>;
  /** What the rules judge of the recording, read in-process: requirement -> passed (observed, no finding). */
  let judged: string[];

  beforeAll(async () => {
    assertBuilt();
    entries = await record(tmp.dir);
    reference = await judgeHar(tmp.dir, 'oauth', 'reference', entries);
    const file = join(tmp.dir, 'in-process.har');
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } }));
    const recording = loadHar(file);
    const table = loadedSuite(suite).api as ApiTable;
    const view = passiveView(table, recording, matchRecording(table, recording));
    judged = [...new Set(Object.values(OAUTH_PASSIVE_RULES).flatMap((r) => r.judge(view)).filter((v) => v.observations > 0).map((v) => v.requirement))].sort();
  }, 120_000);
  afterAll(() => tmp.remove());

  it('the recording is masked as specgate record masks it, and fits the API table', () => {
    const token = entries.find((e) => path(e) === '/login/oauth/access_token');
    expect(formOf(token as Entry).get('code')).toBe('***');
    expect(reference.report.suites[0]?.properties['unmatched'] ?? '').not.toMatch(/access_token|device\/code|\/api\/user/);
  });

  it('passes every requirement it can judge, each rule judging some; the rest say what the recording lacks', async () => {
    expect(reference.stderr).toBe('');
    // the README's counts: what this recording of the reference application and platform judged (both sides), what `list --passive` says a recording can settle, the gating requirements
    await expectReadmeRecordingCounts(tmp.dir, 'oauth', reference.report);
    const failing = reference.report.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'failed' || c.outcome === 'errored');
    expect(failing.flatMap((c) => c.failures.map((f) => `${c.id} ${f.requirement ?? ''}: ${f.message}`))).toEqual([]);
    expect(reference.code).toBe(0);
    expect(failedRequirements(reference.report)).toEqual([]);
    const status = statusMap(reference.report);
    // what the rules judged in-process is what the CLI reports passed, on both sides
    expect(RULED.filter((id) => status[id] === 'passed')).toEqual(judged);
    // every rule judges something of a correct recording, but the one that judges the platform on wrong exchanges alone (planted below)
    for (const [name, rule] of Object.entries(OAUTH_PASSIVE_RULES)) expect(rule.requirements.some((id) => judged.includes(id)), name).toBe(!ON_DEVIATIONS.includes(name));
    expect(judged.some((id) => id.startsWith('OAUTH-CLIENT-'))).toBe(true);
    for (const id of RULED.filter((id) => !judged.includes(id))) expect(reference.report.requirements.find((r) => r.id === id)?.reason, id).toMatch(/passive target: /);
  });

  it('planted deviations, server and client side, fail exactly their requirements', async () => {
    const e = structuredClone(entries);
    const redirects = e.filter((x) => URL.canParse(location(x) ?? '') && new URL(location(x) ?? '').searchParams.has('code'));
    // the authorization request each redirect answers: the latest up to it (itself, when it redirected at once)
    const answered = (r: Entry): Entry | undefined => e.slice(0, e.indexOf(r) + 1).filter((x) => path(x) === '/login/oauth/authorize' && x.request.method === 'GET').at(-1);
    const [firstAuthorize, secondAuthorize] = redirects.map(answered);
    const exchanges = e.filter((x) => path(x) === '/login/oauth/access_token' && formOf(x).get('grant_type') === null);
    const polls = e.filter((x) => path(x) === '/login/oauth/access_token' && formOf(x).get('grant_type') !== null);
    const start = e.find((x) => path(x) === '/login/device/code');
    const [exchange1, exchange2] = exchanges;
    const [poll1, poll2] = polls;
    const slowDown = polls.find((x) => answer(x)['error'] === 'slow_down');
    if (!firstAuthorize || !secondAuthorize || firstAuthorize === secondAuthorize || redirects.length !== 2 || !exchange1 || !exchange2 || !poll1 || !poll2 || !slowDown || !start) throw new Error(`the recording lacks a part of the flows: ${e.map((x) => `${x.request.method} ${x.request.url} -> ${x.response.status} ${location(x) ?? ''} ${x.response.content.text?.slice(0, 80) ?? ''}`).join('\n')}`);
    // OAUTH-TOKEN-FORMAT-JSON: the first code exchange's JSON answer without scope
    const { scope: _scope, ...rest } = answer(exchange1);
    setAnswer(exchange1, rest);
    // OAUTH-CLIENT-SECRET: the second code exchange without client_secret; OAUTH-PKCE-VERIFIER-REQUIRED (the platform's, for
    // its token) and OAUTH-CLIENT-PKCE-VERIFIER-REQUIRED: and without code_verifier
    const form2 = formOf(exchange2);
    form2.delete('client_secret');
    form2.delete('code_verifier');
    exchange2.request.postData = { mimeType: 'application/x-www-form-urlencoded', text: form2.toString() };
    // OAUTH-TOKEN-REDIRECT-MATCH (the platform's, for its token) and OAUTH-CLIENT-REDIRECT-URI: the first exchange names another redirect_uri
    const form1 = formOf(exchange1);
    form1.set('redirect_uri', `${form1.get('redirect_uri') ?? ''}/elsewhere`);
    exchange1.request.postData = { mimeType: 'application/x-www-form-urlencoded', text: form1.toString() };
    // OAUTH-CLIENT-PKCE-S256: the first authorization request asks for plain
    setQuery(firstAuthorize, 'code_challenge_method', 'plain');
    // OAUTH-CLIENT-STATE: the second authorization request without state (its redirect still carries one)
    setQuery(secondAuthorize, 'state', undefined);
    // OAUTH-AUTHZ-STATE-ECHO: the first redirect with another state
    const back = new URL(location(redirects[0] as Entry) ?? '');
    back.searchParams.set('state', 'not-the-state-sent');
    for (const h of (redirects[0] as Entry).response.headers) if (h.name.toLowerCase() === 'location') h.value = back.toString();
    // OAUTH-DEVICE-USER-CODE-FORMAT: a user code without its hyphen
    setAnswer(start, { ...answer(start), user_code: String(answer(start)['user_code']).replace('-', '') });
    // OAUTH-DEVICE-SLOW-DOWN-INTERVAL: slow_down announcing less than interval + 5 (the client's next gap is still long enough)
    setAnswer(slowDown, { ...answer(slowDown), interval: INTERVAL + 4 });
    // OAUTH-DEVICE-SLOW-DOWN and OAUTH-CLIENT-POLL-INTERVAL: the second poll 300 ms after the first, answered authorization_pending
    poll2.startedDateTime = new Date(Date.parse(poll1.startedDateTime) + 300).toISOString();
    // OAUTH-AUTHZ-NO-CORS-PREFLIGHT (the case, from its recorded request): the pre-flight granted
    const preflight = e.find((x) => x.request.method === 'OPTIONS');
    if (!preflight) throw new Error('the recording lacks the pre-flight');
    preflight.response.headers.push({ name: 'Access-Control-Allow-Origin', value: 'http://spa.example.test' });
    const byCase = ['OAUTH-AUTHZ-NO-CORS-PREFLIGHT'];
    const planted = [...byCase, 'OAUTH-TOKEN-FORMAT-JSON', 'OAUTH-CLIENT-SECRET', 'OAUTH-PKCE-VERIFIER-REQUIRED', 'OAUTH-CLIENT-PKCE-VERIFIER-REQUIRED', 'OAUTH-TOKEN-REDIRECT-MATCH', 'OAUTH-CLIENT-REDIRECT-URI', 'OAUTH-CLIENT-PKCE-S256', 'OAUTH-CLIENT-STATE', 'OAUTH-AUTHZ-STATE-ECHO', 'OAUTH-DEVICE-USER-CODE-FORMAT', 'OAUTH-DEVICE-SLOW-DOWN-INTERVAL', 'OAUTH-DEVICE-SLOW-DOWN', 'OAUTH-CLIENT-POLL-INTERVAL'].sort();
    // a correct client never polls too fast nor sends a wrong exchange: only the planted ones give these platform rules something to judge
    const onlyPlanted = ['OAUTH-DEVICE-SLOW-DOWN', 'OAUTH-PKCE-VERIFIER-REQUIRED', 'OAUTH-TOKEN-REDIRECT-MATCH'];
    for (const id of planted.filter((p) => !byCase.includes(p))) expect(judged.includes(id), `${id} is judged on the reference recording`).toBe(!onlyPlanted.includes(id));
    expect(statusMap(reference.report)['OAUTH-AUTHZ-NO-CORS-PREFLIGHT']).toBe('passed');

    const run = await judgeHar(tmp.dir, 'oauth', 'planted', e);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(failedRequirements(run.report)).toEqual(planted);
    // each found by the rules themselves
    const byRules = new Set(run.report.suites.flatMap((s) => s.cases).filter((c) => c.id.startsWith('passive:')).flatMap((c) => c.failures.map((f) => f.requirement)));
    expect([...byRules].sort()).toEqual(planted.filter((id) => !byCase.includes(id)));
    // a failure over the polls' times names the planted poll (its request and answer: its entry) and the poll before it
    const messages = (id: string): string[] => run.report.suites.flatMap((s) => s.cases).flatMap((c) => c.failures).filter((f) => f.requirement === id).map((f) => f.message);
    const [at1, at2] = [e.indexOf(poll1), e.indexOf(poll2)];
    expect(messages('OAUTH-CLIENT-POLL-INTERVAL')).toEqual([expect.stringMatching(new RegExp(`^POST \\S+/login/oauth/access_token \\(entry ${at2}\\): poll 2 of a device code came 300 ms after the previous one.*\\(the poll before it, of the same device code, is entry ${at1}\\)$`))]);
    expect(messages('OAUTH-DEVICE-SLOW-DOWN')).toEqual([expect.stringMatching(new RegExp(`^POST \\S+/login/oauth/access_token \\(entry ${at2}\\): a poll 300 ms after the previous one \\(entry ${at1}\\)`))]);
    // a comparison with an earlier exchange names it: the code exchange against the authorization request that issued its code
    expect(messages('OAUTH-TOKEN-REDIRECT-MATCH')).toEqual([expect.stringContaining(`(entry ${e.indexOf(exchange1)}): the code exchange names another redirect_uri than the authorization request that issued the code (entry ${e.indexOf(firstAuthorize)})`)]);
    const ruleCases = run.report.suites.flatMap((s) => s.cases).filter((c) => ON_DEVIATIONS.map((r) => `passive:${r}`).includes(c.id));
    expect(ruleCases.map((c) => c.outcome)).toEqual(ON_DEVIATIONS.map(() => 'failed'));
    const before = statusMap(reference.report);
    const after = statusMap(run.report);
    for (const id of Object.keys(before)) if (!planted.includes(id)) expect(after[id], id).toBe(before[id]);
  }, 60_000);
});
