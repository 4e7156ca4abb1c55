/**
 * Targets that misbehave as processes or stop behaving midway through a property:
 *
 * - a plugin that exits but leaves a detached child (its own session) holding stdout is judged
 *   on what it wrote before exiting, at once, and the child does not outlive the run;
 * - a launched client that does the same leaves nothing behind once its harness closes;
 * - a property whose target faults (refuses connections, stops answering, answers garbage)
 *   ends at the first faulted run, saying which, instead of shrinking through more faults;
 * - --case-timeout bounds a property case whose every run is slow, and says how far it got.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { finishClient, withClientHarness } from '../../src/targets/client-process/harness.js';
import { assertBuilt, caseOf, demoSection, reportOf, runCli, runDemo, tempDir, writeProfile, type JsonReport } from './cli.js';

const tmp = tempDir('specgate-processes-');
const PLUGIN_MODULE = fromRoot('dist', 'suites', 'plugin', 'index.js');
/** Sleeps the plugins and clients below started: killed here if the code under test did not. */
const sleepers: number[] = [];
const servers: Server[] = [];

beforeAll(() => assertBuilt());
afterAll(async () => {
  for (const pid of sleepers) if (isLiveSleep(pid)) process.kill(pid, 'SIGKILL');
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  tmp.remove();
});

/** `/proc/<pid>/stat`: state after the command name; a zombie (Z) has ended, only not been reaped. */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

function isLiveSleep(pid: number): boolean {
  const state = procState(pid);
  if (state === undefined || state === 'Z') return false;
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep';
  } catch {
    return false;
  }
}

/** Whether `pid` is gone (or a zombie) within `ms`. */
async function endsWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isLiveSleep(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isLiveSleep(pid);
}

/** The pid a plugin or client wrote to `file` (it writes it before anything else). */
function recordedPid(file: string): number {
  const pid = Number(readFileSync(file, 'utf8').trim());
  expect(pid).toBeGreaterThan(1);
  sleepers.push(pid);
  return pid;
}

const hasSetsid = spawnSync('sh', ['-c', 'command -v setsid'], { encoding: 'utf8' }).status === 0;
/** An empty CodeGeneratorResponse but for supported_features = 1 (field 2, varint): a valid answer. */
const RESPONSE_OCTAL = '\\020\\001';

/**
 * Plugins that answer and exit 0 but leave `sleep 300` running in a session of its own with the
 * plugin's stdout: through the `setsid` command, or Node's detached spawn. Each writes the
 * sleep's pid to `pidFile` and waits until the sleep runs in its new session before answering.
 */
function detachedPlugin(kind: 'setsid' | 'node', pidFile: string): string {
  if (kind === 'setsid') {
    const file = join(tmp.dir, 'plugin-setsid.sh');
    writeFileSync(file, [
      '#!/bin/sh',
      'setsid sleep 300 &',
      'pid=$!',
      `echo $pid > '${pidFile}'`,
      'n=0',
      "while [ $n -lt 100 ] && ! grep -q '(sleep)' /proc/$pid/stat 2>/dev/null; do sleep 0.02; n=$((n+1)); done",
      `printf '${RESPONSE_OCTAL}'`,
      'exit 0',
      '',
    ].join('\n'));
    chmodSync(file, 0o755);
    return file;
  }
  const file = join(tmp.dir, 'plugin-detached.mjs');
  writeFileSync(file, [
    "import { spawn } from 'node:child_process';",
    "import { writeFileSync, writeSync } from 'node:fs';",
    // spawn returns once the child runs `sleep`, already in its own session (detached)
    "const child = spawn('sleep', ['300'], { detached: true, stdio: ['ignore', 1, 'ignore'] });",
    `writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));`,
    'child.unref();',
    'writeSync(1, Buffer.from([0x10, 0x01]));',
    'process.exit(0);',
    '',
  ].join('\n'));
  return file;
}

describe.runIf(process.platform === 'linux')('a plugin whose detached child keeps stdout open', () => {
  it.each([
    { kind: 'setsid' as const, runs: hasSetsid },
    { kind: 'node' as const, runs: true },
  ])('is judged on what it wrote before exiting, and its $kind child is killed', async ({ kind, runs }) => {
    if (!runs) return;
    const pidFile = join(tmp.dir, `${kind}.pid`);
    const plugin = detachedPlugin(kind, pidFile);
    const json = join(tmp.dir, `plugin-${kind}.json`);
    const args = ['run', '--suite-module', PLUGIN_MODULE, '--suite', 'plugin', '--plugin', plugin, '--case', 'plugin-answers-an-empty-request', '--case-timeout', '30000', '--report', `json=${json}`];
    const res = await runCli(args, { cwd: tmp.dir });
    const pid = recordedPid(pidFile);
    expect(existsSync(json), res.stderr).toBe(true);
    const c = caseOf(JSON.parse(readFileSync(json, 'utf8')) as JsonReport, 'plugin-answers-an-empty-request');
    // judged on the response: not an exec timeout (10 s by default) waiting for stdout to close
    expect([c.outcome, c.errorCode, c.reason]).toEqual(['passed', null, null]);
    expect(c.durationMs).toBeLessThan(5000);
    expect(res.code).toBe(0);
    // the run is over and so is the sleep the plugin left behind
    expect(await endsWithin(pid, 1000)).toBe(true);
  }, 60_000);
});

describe.runIf(process.platform === 'linux')('a launched client whose detached child keeps stdout open', () => {
  it('leaves nothing running once the harness has closed', async () => {
    const pidFile = join(tmp.dir, 'client.pid');
    const client = join(tmp.dir, 'client-detached.mjs');
    writeFileSync(client, [
      "import { spawn } from 'node:child_process';",
      "import { writeFileSync } from 'node:fs';",
      "const child = spawn('sleep', ['300'], { detached: true, stdio: ['ignore', 1, 'ignore'] });",
      `writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));`,
      'child.unref();',
      "process.stdout.write('open http://127.0.0.1:1/device\\n');",
      '',
    ].join('\n'));
    const ac = new AbortController();
    const started = Date.now();
    const finished = await withClientHarness(ac.signal, async (h) => {
      const proc = h.launch([process.execPath, client], {});
      const address = await proc.waitForOutput((out) => /open (\S+)/.exec(out)?.[1], 10_000);
      expect(address).toBe('http://127.0.0.1:1/device');
      await proc.waitForExit(5000);
      return finishClient(proc);
    });
    // judged on the client's own exit, not on its stdout closing
    expect(finished.exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(await endsWithin(recordedPid(pidFile), 1000)).toBe(true);
  }, 30_000);
});

/** How the greeting service answers once it has answered `healthy` requests correctly. */
type Breakdown = 'refuse' | 'silent' | 'garbage' | 'slow';

interface Hostile {
  url: string;
  /** Requests that arrived after the service broke down (refused connections never arrive). */
  faulted(): number;
}

/**
 * The greeting service's /double and /hello (demo-spec.txt), answering the first `healthy`
 * requests correctly and then breaking down: refusing connections (it stops listening), never
 * answering, answering bytes that are not HTTP, or answering everything after a second.
 */
async function hostileService(breakdown: Breakdown, healthy: number): Promise<Hostile> {
  let seen = 0;
  let faulted = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const answer = (last = false): void => {
      const body = url.pathname === '/double'
        ? { n: Number(url.searchParams.get('n')) * 2 }
        : { message: `hello ${url.searchParams.get('name') ?? ''}` };
      // the last healthy answer closes its connection, so the next request needs a new one
      // (a kept-alive socket closed under the client would read as a reset, not a refusal)
      res.writeHead(200, { 'content-type': 'application/json', ...(last ? { connection: 'close' } : {}) });
      res.end(JSON.stringify(body));
    };
    seen += 1;
    if (breakdown === 'slow') return void setTimeout(answer, 1000);
    if (seen <= healthy) {
      const refuseNext = seen === healthy && breakdown === 'refuse';
      answer(refuseNext);
      if (refuseNext) {
        server.close();
        res.on('finish', () => server.closeAllConnections());
      }
      return;
    }
    faulted += 1;
    if (breakdown === 'garbage') req.socket.end('SPECGATE-NOT-HTTP \u0001\u0002\r\n\r\n');
    // 'silent': the request is left unanswered; the server's close ends the connection
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, faulted: () => faulted };
}

/** The demo suite against `url`, one case, with a short HTTP deadline (unless told otherwise). */
async function runAgainst(url: string, name: string, caseId: string, extra: string[], httpTimeoutMs = 500): Promise<{ code: number | null; ms: number; c: ReturnType<typeof caseOf> }> {
  const profile = writeProfile(tmp.dir, name, { suites: { demo: demoSection(url, { http: { timeoutMs: httpTimeoutMs } }) } });
  const started = Date.now();
  // seed 3: the property's second value is 96, which shrinking would try to bring down to 0
  const run = await runDemo(tmp.dir, ['--target', profile, '--case', caseId, '--seed', '3', ...extra]);
  return { code: run.code, ms: Date.now() - started, c: caseOf(reportOf(run), caseId) };
}

describe('a property whose target faults after the first run', () => {
  // long enough that the healthy first run of a freshly started CLI on a loaded machine is in
  // time; only the silent breakdown waits it out
  const deadline = 1500;
  it.each([
    { breakdown: 'refuse' as const, code: 'SG_TARGET_UNREACHABLE', reason: /connection refused/ },
    { breakdown: 'silent' as const, code: 'SG_TARGET_TIMEOUT', reason: /did not complete within 1500 ms/ },
    // which code a garbled answer gets is the HTTP client's business (src/targets/http-errors.ts)
    { breakdown: 'garbage' as const, code: 'SG_TARGET_PROTOCOL', reason: /is not valid HTTP\/1\.1: it does not start with a status line/ },
  ])('ends at the first faulted run ($breakdown) with that fault', async ({ breakdown, code, reason }) => {
    const target = await hostileService(breakdown, 1);
    const { code: exit, c } = await runAgainst(target.url, `fault-${breakdown}`, 'double-property', ['--case-timeout', '60000'], deadline);
    expect([c.outcome, c.errorCode, c.reason]).toEqual(['errored', code, expect.stringMatching(reason)]);
    // the fault names the run it ended: the second of 100, after one that passed
    expect(c.reason).toContain('property run 2 of 100, the 1 run before it passed');
    // one faulted attempt, not one per shrink step
    if (breakdown !== 'refuse') expect(target.faulted()).toBe(1);
    expect(c.durationMs).toBeLessThan(3 * deadline);
    expect(exit).toBe(3);
  }, 60_000);

  it('ends a typed check\'s ctx.property at its first faulted run too', async () => {
    // name-echo asks for its three listed names first, then runs the property
    const target = await hostileService('silent', 4);
    const { code: exit, c } = await runAgainst(target.url, 'fault-typed', 'name-echo', ['--case-timeout', '60000'], deadline);
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_TIMEOUT']);
    expect(c.reason).toContain('property run 2 of 30, the 1 run before it passed');
    expect(target.faulted()).toBe(1);
    expect(exit).toBe(3);
  }, 60_000);
});

describe('--case-timeout on a slow property case', () => {
  it('stops 1000 one-second runs at the case timeout and says how many completed', async () => {
    const target = await hostileService('slow', 0);
    const { code: exit, ms, c } = await runAgainst(target.url, 'slow', 'double-property', ['--runs', '1000', '--case-timeout', '3000'], 5000);
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_CASE_TIMEOUT']);
    const done = /was stopped after (\d+) of 1000 property runs/.exec(c.reason ?? '');
    expect(done, c.reason ?? '').not.toBeNull();
    expect(Number(done?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(done?.[1])).toBeLessThanOrEqual(3);
    expect(c.durationMs).toBeGreaterThanOrEqual(3000);
    expect(c.durationMs).toBeLessThan(4500);
    // the whole run, start-up and reports included, is not held up by the runs left
    expect(ms).toBeLessThan(20_000);
    expect(exit).toBe(3);
  }, 60_000);
});
