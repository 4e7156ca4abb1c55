/**
 * `--target har:<file>` end to end: traffic recorded from real requests to the notes example
 * service is written as HAR 1.2, and the CLI judges it with the example suite — every
 * single-exchange verifier on the recorded answers, everything else untested with the reason.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotesServer, type RunningNotesServer } from '../../examples/notes/server.js';
import { fromRoot } from '../../src/paths.js';
import { runSuiteModule, type SuiteModuleRun } from '../helpers/suite-module-run.js';
import { harEntry, harFile } from '../targets/har/har-builder.js';
import { assertBuilt, caseOf, runCli, statusMap, tempDir, type JsonReport } from './cli.js';

const MODULE = fromRoot('dist/examples/notes/suite.js');
const TOKEN = 'har-recorded-token-5521';
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** Sends one request with undici and returns it as a HAR entry (what a recording proxy would write). */
async function record(base: string, method: string, path: string, opts: { headers?: Record<string, string>; json?: unknown } = {}): Promise<{ entry: Record<string, unknown>; body: unknown }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}), ...(opts.json !== undefined ? { 'content-type': 'application/json' } : {}) };
  const requestBody = opts.json !== undefined ? JSON.stringify(opts.json) : undefined;
  const res = await request(`${base}${path}`, { method: method as 'GET', headers, ...(requestBody !== undefined ? { body: requestBody } : {}) });
  const text = await res.body.text();
  const responseHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') responseHeaders[k] = v;
  const entry = harEntry({ method, url: `${base}${path}`, requestHeaders: headers, ...(requestBody !== undefined ? { requestBody } : {}), status: res.statusCode, responseHeaders, body: text });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { entry, body };
}

/** A session of a client using the service: every operation once, a 404, a request without token, and a stray request. */
async function recordSession(base: string): Promise<Record<string, unknown>[]> {
  const entries: Record<string, unknown>[] = [];
  const rec = async (method: string, path: string, opts: { headers?: Record<string, string>; json?: unknown } = {}): Promise<unknown> => {
    const { entry, body } = await record(base, method, path, opts);
    entries.push(entry);
    return body;
  };
  await rec('GET', '/health');
  const created = (await rec('POST', '/notes', { headers: AUTH, json: { title: 'groceries', body: 'milk' } })) as { id: string };
  await rec('GET', `/notes/${created.id}`, { headers: AUTH });
  await rec('PATCH', `/notes/${created.id}`, { headers: AUTH, json: { title: 'shopping' } });
  await rec('GET', '/notes?limit=2', { headers: AUTH });
  await rec('POST', '/notes/batch', { headers: AUTH, json: { items: [{ title: 'a' }, { title: 'b' }] } });
  const tag = (await rec('POST', '/tags', { headers: AUTH, json: { name: 'home' } })) as { id: string };
  await rec('GET', '/tags', { headers: AUTH });
  await rec('DELETE', `/tags/${tag.id}`, { headers: AUTH });
  await rec('DELETE', `/notes/${created.id}`, { headers: AUTH });
  await rec('GET', `/notes/${created.id}`, { headers: AUTH });
  await rec('GET', '/notes');
  await rec('GET', '/favicon.ico');
  return entries;
}

async function judge(dir: string, har: string, extra: string[] = []): Promise<SuiteModuleRun & { report: JsonReport }> {
  const run = await runSuiteModule(dir, MODULE, 'notes', ['--target', `har:${har}`, ...extra]);
  if (!run.report) throw new Error(`the run wrote no JSON report (exit ${run.code}): ${run.stderr}${run.stdout}`);
  return { ...run, report: run.report };
}

const NEEDS_LIVE = 'skipped: passive target: needs live requests';

describe('passive target: a HAR recording judged by the notes suite', () => {
  const tmp = tempDir();
  let server: RunningNotesServer;
  let entries: Record<string, unknown>[];
  beforeAll(async () => {
    assertBuilt();
    server = await startNotesServer({ token: TOKEN });
    entries = await recordSession(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.remove();
  });

  it('judges what single exchanges show, leaves the rest untested with the reason, lists stray traffic', async () => {
    const har = join(tmp.dir, 'good.har');
    writeFileSync(har, JSON.stringify(harFile(entries), null, 2));
    const run = await judge(tmp.dir, har);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(statusMap(run.report)).toEqual({
      'NOTES-ROUTES': 'passed',
      'NOTES-SHAPES': 'passed',
      'NOTES-AUTH': 'passed',
      'NOTES-METHOD': 'untested',
      'NOTES-PAGE-DEFAULT': 'untested',
      'NOTES-PAGE-LIMIT': 'untested',
      'NOTES-PAGE-WALK': 'untested',
      'NOTES-BATCH': 'untested',
      'NOTES-LIFECYCLE': 'untested',
    });
    const reasons = Object.fromEntries(run.report.requirements.map((r) => [r.id, r.reason]));
    for (const id of ['NOTES-METHOD', 'NOTES-PAGE-DEFAULT', 'NOTES-PAGE-LIMIT', 'NOTES-PAGE-WALK', 'NOTES-BATCH', 'NOTES-LIFECYCLE']) expect(reasons[id]).toBe(NEEDS_LIVE);
    // only listNotes was asked without a token: the other operations' auth cases had nothing to judge
    expect(caseOf(run.report, 'auth-required-list-notes').outcome).toBe('passed');
    expect(caseOf(run.report, 'auth-required-get-note')).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/no request without credentials of operation getNote/) });
    expect(run.stdout).toMatch(/1 recorded exchange\(s\) fit no operation of suite notes .*GET http:\/\/127\.0\.0\.1:\d+\/favicon\.ico/);
    expect(run.report.suites[0]?.properties).toMatchObject({ mode: 'passive', exchanges: '13', matched: '12' });
    expect(readFileSync(run.json, 'utf8') + run.stdout).not.toContain(TOKEN);
  });

  it('fails the requirements a recorded answer breaks, naming the entry', async () => {
    // the getNote answer (entry 2) as a faulty service would have sent it: no title
    const planted = structuredClone(entries) as { response: { content: { text: string } } }[];
    const answer = planted[2]?.response.content as { text: string };
    const note = JSON.parse(answer.text) as Record<string, unknown>;
    delete note['title'];
    answer.text = JSON.stringify(note);
    const har = join(tmp.dir, 'planted.har');
    writeFileSync(har, JSON.stringify(harFile(planted)));
    const run = await judge(tmp.dir, har);
    expect(run.code).toBe(1);
    expect(statusMap(run.report)).toMatchObject({ 'NOTES-ROUTES': 'failed', 'NOTES-SHAPES': 'failed', 'NOTES-AUTH': 'passed', 'NOTES-METHOD': 'untested' });
    const failure = caseOf(run.report, 'served-get-note').failures[0];
    expect(failure?.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/notes\/\S+ \(entry 2\): .*lacks title \(the 200 answer's body breaks schema notes\/note\)$/);
    expect(caseOf(run.report, 'served-create-note').outcome).toBe('passed');
  });

  it('stops before running on a malformed recording (exit 2), naming the entry and field', async () => {
    const broken = structuredClone(entries) as { request: Record<string, unknown> }[];
    delete broken[4]?.request['httpVersion'];
    const har = join(tmp.dir, 'broken.har');
    writeFileSync(har, JSON.stringify(harFile(broken), null, 2));
    const res = await runCli(['run', '--suite-module', MODULE, '--target', `har:${har}`, '--report', `json=${join(tmp.dir, 'never.json')}`], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/broken\.har:\d+:\d+: entry 4: request: missing required key "httpVersion" \(not valid HAR 1\.2/);
  });

  it('refuses a suite that describes no API (exit 2)', async () => {
    const har = join(tmp.dir, 'good.har');
    writeFileSync(har, JSON.stringify(harFile(entries)));
    const res = await runCli(['run', '--suite-module', MODULE, '--suite', 'plugin', '--target', `har:${har}`, '--report', `json=${join(tmp.dir, 'never.json')}`], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/suite plugin describes no HTTP API \(api\.yaml\)/);
  });
});
