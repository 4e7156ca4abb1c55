/**
 * `specgate record` end to end: the command runs as a process in front of a reference service
 * (events, merchant), a client sends its traffic through it, the command stops (SIGTERM,
 * `--count`), and `specgate run --suite <s> --target har:<file>` judges the file it wrote —
 * the passive verdicts a recording of that traffic earns, and no credential in the file. Then a
 * HAR written by Chromium itself (playwright-core's recordHar) is judged the same way, and an
 * https upstream is recorded through TLS.
 *
 * Needs `npm run build` (the CLI and the reference clients run from dist/).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MON_API_KEY, MON_APP_KEY } from '../../reference/events/model/monitor-keys.js';
import { SEEDED_PLATFORM } from '../../reference/events/model/platform-seed-accounts.js';
import type { Handler } from '../../reference/events/server/answers.js';
import { PLATFORM_PREFIX } from '../../reference/events/server/routes.js';
import { startEventsServer } from '../../reference/events/server/server.js';
import { merchantClientEnvVars } from '../../reference/merchant/client/contract.js';
import { startMerchantServer } from '../../reference/merchant/server/server.js';
import { fromRoot } from '../../src/paths.js';
import { listenOnLoopback } from '../../src/targets/loopback-server.js';
import { loadHar } from '../../src/targets/har/load-har.js';
import { suite as eventsSuite } from '../../suites/events/index.js';
import { suite as merchantSuite } from '../../suites/merchant/index.js';
import { casesJudgedFromRecording, passiveStatuses, ruledRequirements } from '../helpers/passive-cases.js';
import { PROBES, referenceClientEnv } from '../helpers/events-probes.js';
import { EVENTS_PASSIVE_RULES } from '../../suites/events/passive/index.js';
import { commandAvailable, declarePeer, requirePeer } from '../helpers/peer.js';
import { loadedSuite } from '../helpers/suite-facts.js';
import { failedRequirements } from '../helpers/verdicts.js';
import { merchantRoutes, runScript } from '../reference/merchant/recorder.js';
import { BIN, assertBuilt, readReport, runCli, statusMap, tempDir, type CliResult, type JsonReport } from './cli.js';

const CHROMIUM = '/usr/bin/chromium';
const browserPeer = requirePeer('chromium', existsSync(CHROMIUM), 'apt-get install chromium');
declarePeer(browserPeer);
const opensslPeer = requirePeer('openssl', commandAvailable('openssl', ['version']), 'apt-get install openssl');
declarePeer(opensslPeer);

const EVENTS_CLIENT = fromRoot('dist', 'reference', 'events', 'client', 'main.js');
const MERCHANT_CLIENT = fromRoot('dist', 'reference', 'merchant', 'client', 'main.js');
const NEEDS_LIVE = 'passive target: needs live requests';

interface Recording {
  /** The URL the command printed for the client. */
  url: string;
  child: ChildProcess;
  /** The command's end. */
  done: Promise<CliResult>;
}

/** Starts `specgate record` and waits for the line that names the URL to give the client. */
function startRecord(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Recording> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'record', ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let started = false;
    const done = new Promise<CliResult>((res) => child.on('close', (code) => res({ code, stdout, stderr })));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /^recording (http:\/\/127\.0\.0\.1:\d+) -> /m.exec(stdout);
      if (m && !started) {
        started = true;
        resolve({ url: m[1] as string, child, done });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    void done.then((r) => {
      if (!started) reject(new Error(`specgate record ended before it listened (exit ${r.code}): ${r.stderr}${r.stdout}`));
    });
  });
}

/** `specgate run --suite <suite> --target har:<file>` with a JSON report beside the file. */
async function judge(dir: string, suite: string, har: string, extra: readonly string[] = []): Promise<CliResult & { report: JsonReport }> {
  const json = join(dir, `${suite}-${Date.now()}.json`);
  const res = await runCli(['run', '--suite', suite, '--target', `har:${har}`, '--report', `json=${json}`, ...extra], { cwd: dir });
  if (!existsSync(json)) throw new Error(`the run wrote no JSON report (exit ${res.code}): ${res.stderr}${res.stdout}`);
  return { ...res, report: readReport(json) };
}

function nothingFailed(report: JsonReport): void {
  expect(failedRequirements(report)).toEqual([]);
  expect(report.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'errored' || c.outcome === 'failed')).toEqual([]);
}

/** Polls come every second instead of every 60 (the reference client waits them out). */
const shortPolls = (_id: string, reference: Handler): Handler => (call, ctx) => {
  const answer = reference(call, ctx);
  return answer.headers?.['x-poll-interval'] === undefined ? answer : { ...answer, headers: { ...answer.headers, 'x-poll-interval': '1' } };
};

const events = loadedSuite(eventsSuite);
const merchant = loadedSuite(merchantSuite);

describe('specgate record: recordings the CLI writes, judged by the CLI', () => {
  const tmp = tempDir('specgate-record-');
  beforeAll(() => assertBuilt());
  afterAll(() => tmp.remove());

  it('events: the reference client and platform reads through the recorder, stopped by SIGTERM', async () => {
    const server = await startEventsServer({ override: shortPolls });
    const har = join(tmp.dir, 'events.har');
    let rec: Recording | undefined;
    try {
      rec = await startRecord(['--upstream', server.url, '--har', har], tmp.dir);
      expect(rec.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const p = SEEDED_PLATFORM;
      const launch = await runScript(EVENTS_CLIENT, [], referenceClientEnv(rec.url));
      expect(launch).toMatchObject({ code: 0, stderr: '' });
      // the platform endpoints the client does not poll, read as a platform client reads them
      const eventId = server.model.platform.firstIssueEventOf(p.owner, p.repo, p.issueNumber)?.id;
      const repo = `/repos/${p.owner}/${p.repo}`;
      const paths = ['/events', `/networks/${p.owner}/${p.repo}/events`, `/orgs/${p.org}/events`, `/users/${p.username}/events`, `/users/${p.username}/events/orgs/${p.org}`, `/users/${p.username}/events/public`, `/users/${p.username}/received_events`, `/users/${p.username}/received_events/public`, `${repo}/issues/events`, `${repo}/issues/events/${String(eventId)}`, `${repo}/issues/${p.issueNumber}/events`];
      const headers = { authorization: `Bearer ${p.token}`, 'x-platform-api-version': '2022-11-28', accept: 'application/vnd.platform+json' };
      for (const path of paths) expect((await request(`${rec.url}${PLATFORM_PREFIX}${path}`, { headers })).statusCode, path).toBe(200);
      // the requests of the cases judged from a recording (passive: judge)
      for (const probe of PROBES) await (await request(`${rec.url}${probe.path}`, { headers: probe.headers })).body.text();
      // written as it goes: the file holds the exchanges before the recorder stops
      await new Promise((r) => setTimeout(r, 500));
      const sofar = loadHar(har).exchanges.length;
      expect(sofar).toBeGreaterThan(paths.length);
      rec.child.kill('SIGTERM');
      const end = await rec.done;
      expect(end.code).toBe(0);
      expect(end.stderr).toMatch(/interrupted \(SIGTERM\); writing the recording/);
      expect(end.stdout).toMatch(/specgate record: stopped; \d+ exchange\(s\) written to /);
    } finally {
      if (rec && rec.child.exitCode === null) rec.child.kill('SIGKILL');
      await server.stop();
    }
    const text = readFileSync(har, 'utf8');
    for (const secret of [SEEDED_PLATFORM.token, MON_API_KEY, MON_APP_KEY]) expect(text).not.toContain(secret);
    const loaded = loadHar(har);
    expect(loaded.creator).toMatch(/^specgate \d+\.\d+\.\d+/);
    // the credentials are there, masked: passive rules still see that requests carried them
    expect(loaded.exchanges.find((x) => x.url.includes('/platform/'))?.requestHeaders['authorization']).toBe('***');

    // the server side: the probes are requests no conformant client sends (keys left out on purpose),
    // so the client side of this recording is not what the test judges (passive-events-rules.test.ts does)
    const run = await judge(tmp.dir, 'events', har, ['--side', 'server']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const n = String(loaded.exchanges.length);
    expect(run.report.suites[0]?.properties).toMatchObject({ mode: 'passive', exchanges: n, matched: n });
    // the verdicts of the cases; what the suite's rules over the whole recording judge is theirs (nothing failed, below)
    const ruled = new Set(Object.values(EVENTS_PASSIVE_RULES).flatMap((r) => r.requirements));
    const serverCases = (statuses: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(statuses).filter(([id]) => !ruled.has(id) && events.requirements.find((r) => r.id === id)?.side !== 'client'));
    expect(serverCases(statusMap(run.report))).toEqual(serverCases(passiveStatuses(events)));
    expect(Object.values(statusMap(run.report))).toContain('passed');
    nothingFailed(run.report);
    // the cases that pass are those a recording judges, and the suite's rules (passive:<name>) that found something to judge
    const passing = run.report.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'passed' && !c.id.startsWith('passive:')).map((c) => c.id).sort();
    expect(passing).toEqual(casesJudgedFromRecording(events).sort());
  }, 120_000);

  it('merchant: the reference client and one request with credentials, stopped by --count', async () => {
    const server = await startMerchantServer();
    const har = join(tmp.dir, 'merchant.har');
    const ops = merchantRoutes().map((r) => r.id);
    const token = 'merchant-bearer-secret-4711';
    const queryToken = 'merchant-query-secret-0815';
    let rec: Recording | undefined;
    try {
      rec = await startRecord(['--upstream', server.url, '--har', har, '--count', String(ops.length + 1)], tmp.dir);
      const launch = await runScript(MERCHANT_CLIENT, [], merchantClientEnvVars({ url: rec.url, merchantId: server.merchantId, cssGroupId: server.cssGroupId, cssDomainId: server.cssDomainId }));
      expect(launch.code).toBe(0);
      const res = await request(`${rec.url}/content/v2.1/accounts/authinfo?access_token=${queryToken}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(200);
      await res.body.text();
      const end = await rec.done;
      expect(end.code).toBe(0);
      expect(end.stdout).toContain(`${ops.length + 1} exchange(s) recorded; ${ops.length + 1} exchange(s) written to`);
    } finally {
      if (rec && rec.child.exitCode === null) rec.child.kill('SIGKILL');
      await server.stop();
    }
    const text = readFileSync(har, 'utf8');
    expect(text).not.toContain(token);
    expect(text).not.toContain(queryToken);
    expect(text).toContain('access_token=***');
    const run = await judge(tmp.dir, 'merchant', har);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const n = String(ops.length + 1);
    expect(run.report.suites[0]?.properties).toMatchObject({ mode: 'passive', exchanges: n, matched: n });
    expect(statusMap(run.report)).toEqual(passiveStatuses(merchant, undefined, ruledRequirements(merchantSuite)));
    nothingFailed(run.report);
    for (const r of run.report.requirements) if (r.status === 'untested') expect(r.reason, r.id).toBe(`skipped: ${NEEDS_LIVE}`);
  }, 120_000);

  it('a request body over --max-body: the file keeps it cut and marked, and the judged report names the entry as not judged', async () => {
    const server = await startMerchantServer();
    const har = join(tmp.dir, 'request-cut.har');
    const body = JSON.stringify({ displayName: `Region ${'x'.repeat(200)}`, postalCodeArea: { regionCode: 'US' } });
    try {
      const rec = await startRecord(['--upstream', server.url, '--har', har, '--count', '1', '--max-body', '64'], tmp.dir);
      const res = await request(`${rec.url}/content/v2.1/${server.merchantId}/regions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      // the service got the whole body
      expect(res.statusCode).toBe(200);
      await res.body.text();
      expect((await rec.done).code).toBe(0);
    } finally {
      await server.stop();
    }
    expect(loadHar(har).exchanges[0]).toMatchObject({ method: 'POST', requestCut: Buffer.byteLength(body) });
    const run = await judge(tmp.dir, 'merchant', har);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/1 recorded request\(s\) have a body over the recording's body cap, kept cut: their bodies are not judged against schemas, and no request step of a case stands on them: entry 0 regions\.create \(\d+ bytes\)/);
    expect(run.report.suites[0]?.properties['requestBodiesCut']).toBe(`entry 0 regions.create (${Buffer.byteLength(body)} bytes)`);
    // its answer is still judged: the route is served
    expect(statusMap(run.report)['MERCHANT-OP-REGIONS-CREATE']).toBe('passed');
  }, 60_000);

  it('an unreachable upstream: the client gets 502, the file holds the request with status 0, which passive judging lists as unanswered', async () => {
    // a port that was free a moment ago: nothing answers there
    const gone = await listenOnLoopback(createHttpServer());
    await gone.stop();
    const har = join(tmp.dir, 'down.har');
    const rec = await startRecord(['--upstream', gone.url, '--har', har, '--count', '1'], tmp.dir);
    const res = await request(`${rec.url}/content/v2.1/accounts/authinfo`);
    expect(res.statusCode).toBe(502);
    expect(await res.body.text()).toMatch(/did not answer/);
    expect((await rec.done).code).toBe(0);
    const x = loadHar(har).exchanges[0];
    expect(x).toMatchObject({ status: 0, method: 'GET' });
    const run = await judge(tmp.dir, 'merchant', har);
    expect(run.stdout).toMatch(/1 recorded exchange\(s\) fit no operation of suite merchant .*the recording holds no answer to it/);
    expect(failedRequirements(run.report)).toEqual([]);
  }, 60_000);

  it('a --har path that cannot be written is exit 2 before anything listens', async () => {
    const res = await runCli(['record', '--upstream', 'http://127.0.0.1:9', '--har', join(tmp.dir, 'no', 'such', 'dir.har')], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/specgate: error \[SG_USAGE\]: --har .*dir\.har: the recording cannot be written \(ENOENT\)/);
    expect(res.stdout).toBe('');
    const bad = await runCli(['record', '--upstream', 'ftp://x', '--har', join(tmp.dir, 'x.har')], { cwd: tmp.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--upstream ftp:\/\/x is not http\(s\)/);
  });

  it.skipIf(opensslPeer.skip)('an https upstream is forwarded over TLS; the listener is plain http', async () => {
    const keyFile = join(tmp.dir, 'key.pem');
    const certFile = join(tmp.dir, 'cert.pem');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const tls = createHttpsServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url, host: req.headers.host }));
    });
    const upstream = await listenOnLoopback(tls);
    const httpsUrl = upstream.url.replace('http:', 'https:');
    const har = join(tmp.dir, 'tls.har');
    try {
      const rec = await startRecord(['--upstream', `${httpsUrl}/base`, '--har', har, '--count', '1'], tmp.dir, { NODE_EXTRA_CA_CERTS: certFile });
      const res = await request(`${rec.url}/x?y=1`);
      expect(await res.body.json()).toEqual({ path: '/base/x?y=1', host: new URL(httpsUrl).host });
      expect((await rec.done).code).toBe(0);
    } finally {
      await upstream.stop();
    }
    expect(loadHar(har).exchanges[0]).toMatchObject({ url: `${httpsUrl}/base/x?y=1`, status: 200 });
  }, 60_000);
});

describe.skipIf(browserPeer.skip)('a HAR written by Chromium (playwright-core recordHar), judged by the CLI', () => {
  const tmp = tempDir('specgate-record-chromium-');
  afterAll(() => tmp.remove());

  it('merchant JSON endpoints visited by the browser: each visited operation is served, nothing fails', async () => {
    assertBuilt();
    const server = await startMerchantServer();
    const har = join(tmp.dir, 'chromium.har');
    const m = server.merchantId;
    const visits: Record<string, string> = {
      'accounts.authinfo': '/accounts/authinfo',
      'accounts.list': `/${m}/accounts`,
      'accountstatuses.list': `/${m}/accountstatuses`,
      'datafeeds.list': `/${m}/datafeeds`,
      'liasettings.listposdataproviders': '/liasettings/posdataproviders',
    };
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const context = await browser.newContext({ recordHar: { path: har, content: 'embed' } });
      const page = await context.newPage();
      for (const path of Object.values(visits)) {
        const answer = await page.goto(`${server.url}/content/v2.1${path}`);
        expect(answer?.status(), path).toBe(200);
      }
      // the HAR is written when the context closes
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
    const loaded = loadHar(har);
    expect(loaded.creator).toMatch(/^Playwright /);
    const run = await judge(tmp.dir, 'merchant', har);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const reached = new Set(Object.keys(visits));
    expect(statusMap(run.report)).toEqual(passiveStatuses(merchant, (op) => reached.has(op), ruledRequirements(merchantSuite)));
    nothingFailed(run.report);
    const props = run.report.suites[0]?.properties ?? {};
    expect(Number(props['matched'])).toBe(Object.keys(visits).length);
  }, 120_000);
});
