/**
 * Ctrl-C (SIGINT) and SIGTERM during `specgate run` and `specgate fuzz`: the first signal stops
 * scheduling, aborts the cases in flight, stops the target's processes (whole process groups),
 * writes the reports of what ran with the run marked interrupted, and exits 130 (SIGINT) or 143
 * (SIGTERM); a second signal quits at once. The target here is slow on purpose: a loopback
 * server that answers all but one request only after several seconds, and a filter executable
 * that starts a helper process and sleeps.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validate, xmllint, xpath } from '../reporting/xmllint.js';
import { declarePeer } from '../helpers/peer.js';
import { BIN, DEMO_MODULE, assertBuilt, caseOf, readReport, runCli, tempDir, writeProfile, type JsonReport } from './cli.js';

/** How long the slow server keeps every request but the fast one waiting (ms). */
const SLOW_MS = 8000;
/** How long a graceful stop may take after the signal (ms): far below any slow answer. */
const STOP_WITHIN_MS = 4000;

const tmp = tempDir();
let server: Server | undefined;
let baseUrl = '';
/** Every CLI process a test started, so none outlives the tests whatever happens. */
const started = new Set<ChildProcess>();

/**
 * The slow executable (the demo filter of the profiles, the plugin of the fuzz searches):
 * records its pid and the pid of a helper it starts (in its process group) in the file named
 * by its first argument, then sleeps; both end by themselves after 30 s.
 */
const SLOW_PLUGIN = `#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
const helper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
appendFileSync(process.argv[2], JSON.stringify({ plugin: process.pid, helper: helper.pid }) + '\\n');
setTimeout(() => process.exit(0), 30000);
`;

beforeAll(async () => {
  assertBuilt();
  writeFileSync(join(tmp.dir, 'slow-plugin.mjs'), SLOW_PLUGIN, { mode: 0o755 });
  // GET /hello?name=world answers at once (the case that finishes before the signal); every
  // other request waits SLOW_MS, or until the client goes away.
  server = createServer((req, res) => {
    if (req.url === '/hello?name=world') {
      res.writeHead(200, { 'content-type': 'application/json', 'x-demo-version': '1.0' });
      res.end(JSON.stringify({ message: 'hello world' }));
      return;
    }
    const timer = setTimeout(() => res.writeHead(503).end(), SLOW_MS);
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  tmp.remove();
});

/** A running CLI: its output so far, and how it ended (with the time it ended). */
interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function startCli(args: string[]): Running {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: tmp.dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, stdout: () => out, stderr: () => err, ended };
}

/** The exit status a shell reports (`$?`): the code, or 128 + the number of the signal that ended it. */
function shellStatus(e: { code: number | null; signal: NodeJS.Signals | null }): number | undefined {
  if (e.code !== null) return e.code;
  return e.signal ? 128 + constants.signals[e.signal] : undefined;
}

/** Polls `ready` every 50 ms; throws with `what` (and the CLI's output) after `timeoutMs`. */
async function waitFor(ready: () => boolean, what: string, cli: Running, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!ready()) {
    if (cli.child.exitCode !== null || cli.child.signalCode !== null) throw new Error(`the CLI ended before ${what}:\n${cli.stdout()}\n${cli.stderr()}`);
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}:\n${cli.stdout()}\n${cli.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The pids the slow plugin recorded (one line per start). */
function pluginPids(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      const p = JSON.parse(l) as { plugin: number; helper: number };
      return [p.plugin, p.helper];
    });
}

/** Whether `pid` is a live process (a zombie waiting for a parent that never reaps it is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pids still alive a moment after the CLI ended (a killed group may take a few ms to go). */
async function survivors(pids: number[]): Promise<number[]> {
  const until = Date.now() + 1000;
  let left = pids.filter(alive);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    left = left.filter(alive);
  }
  for (const pid of left) process.kill(pid, 'SIGKILL');
  return left;
}

/**
 * A demo run against the slow target: with two cases in flight, the fast one passes while the
 * slow filter sleeps, then a slow request and three more cases wait. `tap` may name a path
 * that is not a regular file.
 */
function startSlowRun(name: string, tap = join(tmp.dir, `${name}-results.tap`)): { cli: Running; pids: string; json: string; junit: string; tap: string; html: string } {
  const pids = join(tmp.dir, `${name}-pids.txt`);
  appendFileSync(pids, '');
  const profile = writeProfile(tmp.dir, name, {
    suites: {
      demo: {
        vars: { base_url: baseUrl, api_key: 'profile-key-0001' },
        exec: { command: process.execPath, args: [join(tmp.dir, 'slow-plugin.mjs'), pids], timeoutMs: 60_000 },
        http: { timeoutMs: 60_000 },
      },
    },
  });
  const [json, junit, html] = ['results.json', 'junit.xml', 'report.html'].map((f) => join(tmp.dir, `${name}-${f}`)) as [string, string, string];
  const cli = startCli([
    'run', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--target', profile,
    '--case', 'exec-upper,hello-world,version-header,big-id,double-property',
    '--concurrency', '2', '--verbose', '--seed', '1',
    '--report', `json=${json}`, '--report', `junit=${junit}`, '--report', `tap=${tap}`, '--report', `html=${html}`,
  ]);
  return { cli, pids, json, junit, tap, html };
}

/** Waits until the fast case has passed while the slow filter (and a slow request) are in flight. */
async function firstCaseDone(run: { cli: Running; pids: string }): Promise<void> {
  await waitFor(() => run.cli.stdout().includes('✓ demo/hello-world') && pluginPids(run.pids).length > 0, 'the first case to pass and the slow filter to start', run.cli);
}

/** What every interrupted run's JSON report says: the finished case kept, the rest skipped as interrupted. */
function expectInterruptedReport(report: JsonReport & { interrupted?: unknown }, signal: string, exitCode: number): void {
  expect(report.interrupted).toEqual({ signal });
  expect(report.summary.exitCode).toBe(exitCode);
  expect(report.summary.verdict).toMatch(/^interrupted/);
  expect(caseOf(report, 'hello-world').outcome).toBe('passed');
  // in flight when the signal came: stopped, not judged
  for (const id of ['exec-upper', 'version-header']) expect([id, caseOf(report, id).outcome, caseOf(report, id).reason]).toEqual([id, 'skipped', 'interrupted while running']);
  // never started
  for (const id of ['big-id', 'double-property']) expect([id, caseOf(report, id).outcome, caseOf(report, id).reason]).toEqual([id, 'skipped', 'interrupted']);
  expect(report.summary.cases).toMatchObject({ total: 5, passed: 1, skipped: 4, errored: 0, failed: 0 });
}

describe('interrupting specgate run', () => {
  declarePeer(xmllint);

  it('the first Ctrl-C stops the run, reports what ran, marks the rest interrupted and exits 130', async () => {
    const run = startSlowRun('sigint');
    await firstCaseDone(run);
    const sent = Date.now();
    run.cli.child.kill('SIGINT');
    const end = await run.cli.ended;
    expect({ code: end.code, signal: end.signal }).toEqual({ code: 130, signal: null });
    expect(end.at - sent).toBeLessThan(STOP_WITHIN_MS);
    expect(await survivors(pluginPids(run.pids))).toEqual([]);

    expectInterruptedReport(readReport(run.json), 'SIGINT', 130);
    expect(run.cli.stderr()).toContain('interrupted (SIGINT)');
    expect(run.cli.stderr()).not.toMatch(/\n\s+at |this is a bug/);
    // the console summary says so, with the exit code
    expect(run.cli.stdout()).toMatch(/interrupted by SIGINT/);
    expect(run.cli.stdout()).toContain('exit code 130: interrupted (SIGINT)');

    const tap = readFileSync(run.tap, 'utf8');
    expect(tap).toMatch(/^ok \d+ - demo\/big-id \[DEMO-BIG-ID\] # SKIP interrupted$/m);
    expect(tap).toMatch(/^# interrupted by SIGINT/m);
    expect(readFileSync(run.html, 'utf8')).toContain('interrupted by SIGINT');
    if (!xmllint.skip) {
      expect(validate(run.junit).errors).toEqual([]);
      expect(xpath(run.junit, 'string(//testsuite[@name="demo"]/properties/property[@name="interrupted"]/@value)')).toBe('SIGINT');
      expect(xpath(run.junit, 'string(//testcase[starts-with(@name, "big-id")]/skipped/@message)')).toBe('interrupted');
    }
  }, 60_000);

  it('SIGTERM does the same and exits 143', async () => {
    const run = startSlowRun('sigterm');
    await firstCaseDone(run);
    const sent = Date.now();
    run.cli.child.kill('SIGTERM');
    const end = await run.cli.ended;
    expect({ code: end.code, signal: end.signal }).toEqual({ code: 143, signal: null });
    expect(end.at - sent).toBeLessThan(STOP_WITHIN_MS);
    expect(await survivors(pluginPids(run.pids))).toEqual([]);
    expectInterruptedReport(readReport(run.json), 'SIGTERM', 143);
    expect(run.cli.stdout()).toContain('exit code 143: interrupted (SIGTERM)');
    if (!xmllint.skip) expect(validate(run.junit).errors).toEqual([]);
  }, 60_000);

  it('a check that ignores the interruption and sleeps on does not keep specgate from exiting', async () => {
    // the demo suite with its name-echo check replaced by one that sleeps 20 s whatever happens
    const mod = join(tmp.dir, 'stubborn-suite.mjs');
    writeFileSync(
      mod,
      `import { suite as demo } from ${JSON.stringify(pathToFileURL(DEMO_MODULE).href)};
const sleepy = { ...demo.checks.nameEcho, run: () => new Promise((resolve) => setTimeout(resolve, 20000)) };
export const suite = { ...demo, checks: { ...demo.checks, nameEcho: sleepy } };
`,
    );
    const json = join(tmp.dir, 'stubborn.json');
    const cli = startCli(['run', '--suite-module', mod, '--suite', 'demo', '--case', 'hello-world,name-echo,big-id', '--concurrency', '1', '--verbose', '--report', `json=${json}`]);
    await waitFor(() => cli.stdout().includes('✓ demo/hello-world'), 'the first case to pass', cli);
    await new Promise((r) => setTimeout(r, 300));
    const sent = Date.now();
    cli.child.kill('SIGINT');
    const end = await cli.ended;
    expect({ code: end.code, signal: end.signal }).toEqual({ code: 130, signal: null });
    expect(end.at - sent).toBeLessThan(STOP_WITHIN_MS);
    const report = readReport(json);
    expect([caseOf(report, 'name-echo').outcome, caseOf(report, 'name-echo').reason]).toEqual(['skipped', 'interrupted while running']);
    expect([caseOf(report, 'big-id').outcome, caseOf(report, 'big-id').reason]).toEqual(['skipped', 'interrupted']);
  }, 60_000);

  it('merging the report of an interrupted run keeps the interruption: exit 130, never a green gate', async () => {
    const run = startSlowRun('merged');
    await firstCaseDone(run);
    run.cli.child.kill('SIGINT');
    expect((await run.cli.ended).code).toBe(130);
    const json = join(tmp.dir, 'merged-again.json');
    // the run selected some cases (--case): a merge of it judges those only when told so
    const merge = await runCli(['merge', run.json, '--suite-module', DEMO_MODULE, '--allow-partial', '--report', `json=${json}`], { cwd: tmp.dir });
    expect(merge.code).toBe(130);
    expect(merge.stdout).toContain('exit code 130: interrupted (SIGINT)');
    const report = readReport(json) as JsonReport & { interrupted?: unknown };
    expect(report.interrupted).toEqual({ signal: 'SIGINT' });
    expect(caseOf(report, 'big-id').reason).toBe('interrupted');
  }, 60_000);

  it('a second Ctrl-C quits at once while the first is still writing a report nobody reads', async () => {
    // a named pipe without a reader: writing the TAP report there waits until someone reads
    const fifo = join(tmp.dir, 'nobody-reads.tap');
    const made = spawnSync('mkfifo', [fifo]);
    expect(made.status, `mkfifo failed: ${String(made.stderr)}`).toBe(0);
    const stuck = startSlowRun('twice', fifo);
    await firstCaseDone(stuck);
    stuck.cli.child.kill('SIGINT');
    // the reports that can be written are written while the pipe waits for a reader
    await waitFor(() => existsSync(stuck.json), 'the JSON report of the interrupted run', stuck.cli, STOP_WITHIN_MS);
    expectInterruptedReport(readReport(stuck.json), 'SIGINT', 130);
    await new Promise((r) => setTimeout(r, 500));
    expect(stuck.cli.child.exitCode).toBeNull();
    const sent = Date.now();
    stuck.cli.child.kill('SIGINT');
    const end = await stuck.cli.ended;
    expect(end.at - sent).toBeLessThan(1500);
    expect(shellStatus(end)).toBe(130);
    expect(stuck.cli.stderr()).toContain('interrupted again: quitting without waiting');
    expect(await survivors(pluginPids(stuck.pids))).toEqual([]);
  }, 60_000);
});

describe('interrupting specgate fuzz', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s stops the fuzzer and the plugins in flight and exits %i', async (signal, status) => {
    const pids = join(tmp.dir, `fuzz-${signal}-pids.txt`);
    appendFileSync(pids, '');
    const cli = startCli(['fuzz', 'plugin', '--plugin', `${join(tmp.dir, 'slow-plugin.mjs')} ${pids}`, '--runs', '50', '--seed', '1', '--out', join(tmp.dir, `fuzz-${signal}`)]);
    await waitFor(() => pluginPids(pids).length > 0, 'the first plugin to start', cli);
    const sent = Date.now();
    cli.child.kill(signal);
    const end = await cli.ended;
    expect({ code: end.code, signal: end.signal }).toEqual({ code: status, signal: null });
    expect(end.at - sent).toBeLessThan(STOP_WITHIN_MS);
    expect(cli.stdout()).toMatch(/no finding in \d+ valid requests before it was interrupted/);
    expect(cli.stderr()).toContain(`interrupted (${signal})`);
    expect(await survivors(pluginPids(pids))).toEqual([]);
  }, 60_000);
});
