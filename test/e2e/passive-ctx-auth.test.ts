/**
 * The ctx-auth suite judged from a recording, end to end: `specgate record` runs as a process in
 * front of the reference server, the reference client goes through its flow twice through it
 * (401, metadata, registration, authorization, code exchange, resource calls), and
 * `specgate run --suite ctx-auth --target har:<file>` judges the masked file it wrote. The
 * recording passes every requirement the rules find something to judge in it (derived from the
 * rules on the same file, not listed here) and leaves the others untested with what it lacks;
 * planted deviations, server side and client side, each fail exactly their requirements.
 *
 * Needs `npm run build` (the CLI and the reference client run from dist/).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceCtxClientScript } from '../../reference/ctx-auth/client/command.js';
import { OffsetClock } from '../../reference/ctx-auth/server/clock-hook.js';
import { startCtxServer } from '../../reference/ctx-auth/server/server.js';
import type { ApiTable } from '../../src/engine/api/table.js';
import { matchRecording } from '../../src/engine/passive/match-recording.js';
import { passiveView } from '../../src/engine/passive/passive-rules.js';
import { loadHar } from '../../src/targets/har/load-har.js';
import { suite } from '../../suites/ctx-auth/index.js';
import { CTX_AUTH_PASSIVE_RULES } from '../../suites/ctx-auth/passive/index.js';
import { runScript } from '../reference/merchant/recorder.js';
import { judgeHar } from '../helpers/har-judging.js';
import { expectReadmeRecordingCounts } from '../helpers/recording-counts.js';
import { loadedSuite } from '../helpers/suite-facts.js';
import { failedRequirements } from '../helpers/verdicts.js';
import { harEntry, harFile } from '../targets/har/har-builder.js';
import { BIN, assertBuilt, readReport, runCli, statusMap, tempDir } from './cli.js';

/** A HAR entry as `specgate record` writes it, as the plants below change it. */
interface Entry {
  request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { mimeType: string; text: string } };
  response: { status: number; headers: { name: string; value: string }[]; content: { mimeType: string; text?: string; size: number } };
}

const RULED = [...new Set(Object.values(CTX_AUTH_PASSIVE_RULES).flatMap((r) => r.requirements))].sort();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Two flows of the reference client through `specgate record` in front of the reference server.
 * The server names the recorder's origin in its metadata (publicUrl), so that the client sends
 * every request through it.
 */
async function record(dir: string): Promise<Entry[]> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const server = await startCtxServer({ clock: new OffsetClock(), publicUrl });
  const har = join(dir, 'recorded.har');
  try {
    const child = spawn(process.execPath, [BIN, 'record', '--upstream', server.origin, '--har', har, '--listen', String(port)], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const done = new Promise<number | null>((res) => child.on('close', res));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (/^recording /m.test(out)) resolve();
      });
      void done.then((code) => reject(new Error(`specgate record ended before it listened (exit ${String(code)}): ${err}${out}`)));
    });
    for (let i = 0; i < 2; i++) {
      const client = await runScript(referenceCtxClientScript(), [], { SPECGATE_CTX_SERVER_URL: `${publicUrl}${new URL(server.serverUrl).pathname}` });
      expect(client.code, client.stderr).toBe(0);
    }
    child.kill('SIGTERM');
    expect(await done).toBe(0);
  } finally {
    await server.stop();
  }
  return (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: Entry[] } }).log.entries;
}

// ---------------------------------------------------------------- reading and editing a recording
const pathOf = (e: Entry): string => new URL(e.request.url).pathname;
/** The indexes of the entries with this method and path, in order. */
const at = (entries: readonly Entry[], method: string, path: string | RegExp): number[] => entries.flatMap((e, i) => (e.request.method === method && (typeof path === 'string' ? pathOf(e) === path : path.test(pathOf(e))) ? [i] : []));
const nth = (list: number[], k: number): number => {
  const i = list[k];
  if (i === undefined) throw new Error(`the recording has no entry #${k} of its kind`);
  return i;
};
function setHeader(h: { name: string; value: string }[], name: string, value: string | undefined): void {
  for (let i = h.length - 1; i >= 0; i--) if (h[i]?.name.toLowerCase() === name.toLowerCase()) h.splice(i, 1);
  if (value !== undefined) h.push({ name, value });
}
const headerOf = (h: { name: string; value: string }[], name: string): string | undefined => h.find((x) => x.name.toLowerCase() === name.toLowerCase())?.value;
function editJson(e: Entry, edit: (body: Record<string, unknown>) => void): void {
  const body = JSON.parse(e.response.content.text ?? '{}') as Record<string, unknown>;
  edit(body);
  const text = JSON.stringify(body);
  e.response.content = { ...e.response.content, text, size: Buffer.byteLength(text) };
  setHeader(e.response.headers, 'content-length', undefined);
}
function editForm(e: Entry, edit: (form: URLSearchParams) => void): void {
  const form = new URLSearchParams(e.request.postData?.text ?? '');
  edit(form);
  e.request.postData = { mimeType: e.request.postData?.mimeType ?? 'application/x-www-form-urlencoded', text: form.toString() };
  setHeader(e.request.headers, 'content-length', undefined);
}
function editQuery(e: Entry, edit: (q: URLSearchParams) => void): void {
  const u = new URL(e.request.url);
  edit(u.searchParams);
  e.request.url = u.toString();
}

describe('passive target: the ctx-auth suite judged from a recording of the reference client and server', () => {
  const tmp = tempDir('specgate-passive-ctx-auth-');
  let entries: Entry[];
  let reference: Awaited<ReturnType<typeof judgeHar>>;
  /** The requirements the rules find something to judge in the reference recording, judged in-process on the same file. */
  let observed: string[];

  beforeAll(async () => {
    assertBuilt();
    entries = await record(tmp.dir);
    reference = await judgeHar(tmp.dir, 'ctx-auth', 'reference', entries);
    const table = loadedSuite(suite).api as ApiTable;
    const recording = loadHar(join(tmp.dir, 'reference.har'));
    const view = passiveView(table, recording, matchRecording(table, recording));
    observed = Object.values(CTX_AUTH_PASSIVE_RULES)
      .flatMap((r) => r.judge(view))
      .filter((v) => v.observations > 0)
      .map((v) => v.requirement)
      .sort();
  }, 120_000);
  afterAll(() => tmp.remove());

  it('the recording is masked as specgate record writes it: no code, verifier or token in clear', () => {
    const token = nth(at(entries, 'POST', '/token'), 0);
    expect(new URLSearchParams(entries[token]?.request.postData?.text).get('code_verifier')).toBe('***');
    expect(JSON.parse(entries[token]?.response.content.text ?? '{}')).toMatchObject({ access_token: '***' });
  });

  it('the reference recording passes every requirement a rule judges in it; the others are untested, saying what the recording lacks', async () => {
    expect(reference.stderr).toBe('');
    // the README's counts: what this recording of the reference client and server judged (both sides), what `list --passive` says a recording can settle, the gating requirements
    await expectReadmeRecordingCounts(tmp.dir, 'ctx-auth', reference.report);
    const failing = reference.report.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'failed' || c.outcome === 'errored');
    expect(failing.flatMap((c) => c.failures.map((f) => `${c.id} ${f.requirement ?? ''}: ${f.message}`))).toEqual([]);
    expect(reference.code).toBe(0);
    const status = statusMap(reference.report);
    expect(RULED.filter((id) => status[id] === 'passed')).toEqual(observed);
    // both sides are judged, and every rule finds something in the flow, but the one that pairs codes the recorder masked
    for (const [name, rule] of Object.entries(CTX_AUTH_PASSIVE_RULES)) {
      if (observed.some((id) => rule.requirements.includes(id))) continue;
      const ruleCase = reference.report.suites.flatMap((s) => s.cases).find((c) => c.id === `passive:${name}`);
      expect(ruleCase?.outcome, name).toBe('skipped');
      expect(ruleCase?.reason, name).toMatch(/masks the authorization codes/);
    }
    for (const id of RULED.filter((id) => !observed.includes(id))) expect(reference.report.requirements.find((r) => r.id === id)?.reason, id).toMatch(/passive target: /);
    const rules = reference.report.suites.flatMap((s) => s.cases).filter((c) => c.id.startsWith('passive:'));
    expect(rules.map((c) => c.id).sort()).toEqual(Object.keys(CTX_AUTH_PASSIVE_RULES).map((n) => `passive:${n}`).sort());
    // every exchange of the flow fits a row of the table
    expect(reference.report.suites[0]?.properties?.['unmatched']).toBeUndefined();
  });

  it('traffic of no concern to the protocol beside the flow (another API, a favicon, a login page, the client\'s callback) is judged as nothing: the verdicts are the reference\'s', async () => {
    const origin = new URL((entries[nth(at(entries, 'POST', '/ctx'), 0)] as Entry).request.url).origin;
    const beside = ['/api/v1/events', '/repos/x/y/events', '/favicon.ico', '/login', '/delegation/callback?code=c&state=s'].map((p) => harEntry({ url: `${origin}${p}`, status: 200, responseHeaders: { 'content-type': 'text/html' }, body: 'ok' }));
    const mixed = await judgeHar(tmp.dir, 'ctx-auth', 'beside', [...entries, ...beside]);
    expect(failedRequirements(mixed.report)).toEqual([]);
    expect(mixed.code).toBe(0);
    expect(statusMap(mixed.report)).toEqual(statusMap(reference.report));
  }, 60_000);

  it('planted deviations of the server fail exactly their requirements', async () => {
    const e = structuredClone(entries);
    const get = (i: number): Entry => e[i] as Entry;
    const [doc1, doc2] = at(e, 'GET', '/.well-known/oauth-authorization-server').map(get);
    const [refused1, , , , refused2] = at(e, 'POST', '/ctx').map(get);
    const [token1, token2] = at(e, 'POST', '/token').map(get);
    const [reg1] = at(e, 'POST', '/register').map(get);
    const [authz1] = at(e, 'GET', '/authorize').map(get);
    if (!doc1 || !doc2 || !refused1 || !refused2 || !token1 || !token2 || !reg1 || !authz1) throw new Error('the recording lacks a step of the flow');
    // the metadata: no token_endpoint, no S256, an issuer with a query; the second one not published
    editJson(doc1, (d) => {
      delete d['token_endpoint'];
      delete d['code_challenge_methods_supported'];
      d['issuer'] = `${String(d['issuer'])}?tenant=1`;
    });
    doc2.response.status = 404;
    editJson(doc2, (d) => {
      for (const k of Object.keys(d)) delete d[k];
      d['error'] = 'not_found';
    });
    // the resource: a 401 without its challenge, a request without a token answered 200
    setHeader(refused1.response.headers, 'www-authenticate', undefined);
    refused2.response.status = 200;
    // the token endpoint: no Cache-Control, token_type mac, no expires_in; a refusal with an error of its own
    setHeader(token1.response.headers, 'cache-control', undefined);
    editJson(token2, (d) => {
      d['token_type'] = 'mac';
      delete d['expires_in'];
    });
    const refusal = structuredClone(token2);
    refusal.response.status = 400;
    editJson(refusal, (d) => {
      for (const k of Object.keys(d)) delete d[k];
      d['error'] = 'token_not_today';
    });
    // registration: an answer without client_id; a registration without redirect_uris accepted
    editJson(reg1, (d) => delete d['client_id']);
    const unchecked = structuredClone(reg1);
    unchecked.request.postData = { mimeType: 'application/json', text: '{"client_name":"no redirect"}' };
    // the authorization redirect: another state than the one sent
    const location = headerOf(authz1.response.headers, 'location') ?? '';
    setHeader(authz1.response.headers, 'location', location.replace(/state=[^&]*/, 'state=not-the-one-sent'));
    e.push(refusal, unchecked);
    const planted = await judgeHar(tmp.dir, 'ctx-auth', 'planted-server', e, ['--side', 'server']);
    expect(planted.code).toBe(1);
    expect(failedRequirements(planted.report)).toEqual(
      ['CTX-SRV-METADATA', 'CTX-SRV-METADATA-SHAPE', 'CTX-SRV-METADATA-S256', 'CTX-SRV-METADATA-ISSUER', 'CTX-SRV-WWW-AUTHENTICATE', 'CTX-SRV-401-MISSING', 'CTX-SRV-TOKEN-NO-STORE', 'CTX-SRV-TOKEN-RESPONSE', 'CTX-SRV-EXPIRES-IN', 'CTX-SRV-TOKEN-ERROR-SHAPE', 'CTX-SRV-DCR-VALID', 'CTX-SRV-DCR-INVALID', 'CTX-SRV-STATE-ECHO'].sort(),
    );
  }, 60_000);

  it('with its codes in clear (as a HAR not masked gives them), a token for a wrong verifier and for a code used again fail exactly their requirements', async () => {
    const e = structuredClone(entries);
    const get = (i: number): Entry => e[i] as Entry;
    const authz = at(e, 'GET', '/authorize').map(get);
    const tokens = at(e, 'POST', '/token').map(get);
    // each redirect's code and its exchange's, in clear
    authz.forEach((a, k) => setHeader(a.response.headers, 'location', (headerOf(a.response.headers, 'location') ?? '').replace('code=***', `code=clear-code-${k}`)));
    tokens.forEach((t, k) => editForm(t, (f) => f.set('code', `clear-code-${k}`)));
    const clear = await judgeHar(tmp.dir, 'ctx-auth', 'clear-codes', e, ['--side', 'server']);
    expect(failedRequirements(clear.report)).toEqual([]);
    expect(statusMap(clear.report)['CTX-SRV-PKCE-VERIFIER']).toBe('untested');
    const [token1, token2] = tokens;
    if (!token1 || !token2) throw new Error('the recording lacks a code exchange');
    editForm(token1, (f) => f.set('code_verifier', 'w'.repeat(43)));
    e.push(structuredClone(token2));
    const planted = await judgeHar(tmp.dir, 'ctx-auth', 'planted-codes', e, ['--side', 'server']);
    expect(failedRequirements(planted.report)).toEqual(['CTX-SRV-CODE-SINGLE-USE', 'CTX-SRV-PKCE-VERIFIER']);
  }, 60_000);

  it('planted deviations of the client fail exactly their requirements', async () => {
    const e = structuredClone(entries);
    const get = (i: number): Entry => e[i] as Entry;
    const [doc1] = at(e, 'GET', '/.well-known/oauth-authorization-server').map(get);
    const calls = at(e, 'POST', '/ctx').map(get);
    const [token1, token2] = at(e, 'POST', '/token').map(get);
    const [, authz2] = at(e, 'GET', '/authorize').map(get);
    const call = calls[2];
    const last = calls[calls.length - 1];
    if (!doc1 || !token1 || !token2 || !authz2 || !call || !last) throw new Error('the recording lacks a step of the flow');
    // discovery without the version header; the code exchanged without its verifier
    setHeader(doc1.request.headers, 'ctx-protocol-version', undefined);
    editForm(token1, (f) => f.delete('code_verifier'));
    // a plain challenge; another redirect_uri at the token endpoint than at authorization
    editQuery(authz2, (q) => q.set('code_challenge_method', 'plain'));
    editForm(token2, (f) => f.set('redirect_uri', 'http://127.0.0.1:7777/elsewhere'));
    // a resource call without its token, and the token in a query
    setHeader(call.request.headers, 'authorization', undefined);
    editQuery(last, (q) => q.set('access_token', '***'));
    const planted = await judgeHar(tmp.dir, 'ctx-auth', 'planted-client', e, ['--side', 'client']);
    expect(planted.code).toBe(1);
    expect(failedRequirements(planted.report)).toEqual(['CTX-CLI-VERSION-HEADER', 'CTX-CLI-PKCE-VERIFIER', 'CTX-CLI-PKCE-CHALLENGE', 'CTX-CLI-REDIRECT-URI-SAME', 'CTX-CLI-BEARER-EVERY', 'CTX-CLI-TOKEN-NOT-IN-QUERY'].sort());
  }, 60_000);
});

describe('passive target: another suite\'s traffic judged by every suite (no --suite)', () => {
  const tmp = tempDir('specgate-passive-other-');
  beforeAll(() => assertBuilt());
  afterAll(() => tmp.remove());

  it('an events-like recording answered without credentials fails no requirement of ctx-auth or oauth', async () => {
    const S = 'http://127.0.0.1:9000';
    const json = { 'content-type': 'application/json' };
    const har = join(tmp.dir, 'events.har');
    const recorded = [
      harEntry({ url: `${S}/api/v1/events`, status: 200, responseHeaders: json, body: '{"events":[]}' }),
      harEntry({ url: `${S}/repos/x/y/events`, status: 200, responseHeaders: json, body: '[]' }),
      harEntry({ url: `${S}/events`, status: 200, responseHeaders: json, body: '[]' }),
    ];
    writeFileSync(har, JSON.stringify(harFile(recorded)));
    const out = join(tmp.dir, 'events.json');
    const run = await runCli(['run', '--target', `har:${har}`, '--report', `json=${out}`], { cwd: tmp.dir });
    const report = readReport(out);
    const status = statusMap(report);
    // every suite judged it: ctx-auth and oauth among them
    expect(Object.keys(status).some((id) => id.startsWith('CTX-')) && Object.keys(status).some((id) => id.startsWith('OAUTH-')), run.stderr).toBe(true);
    expect(failedRequirements(report).filter((id) => /^(CTX|OAUTH)-/.test(id))).toEqual([]);
    expect(status['CTX-SRV-401-MISSING']).toBe('untested');
    expect(status['CTX-CLI-401-STARTS-FLOW']).toBe('untested');
  }, 120_000);
});
