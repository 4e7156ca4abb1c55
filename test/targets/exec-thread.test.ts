import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createExecRunner, runExec } from '../../src/targets/exec-runner.js';
import { ThreadedExecRunner } from '../../src/targets/exec-thread.js';
import type { ClientExit } from '../../src/targets/client-process/client-output.js';
import type { ClientMirror } from '../../src/targets/exec-clients.js';
import { FOLLOW_MS, sweepEverythingStarted } from '../../src/targets/process-family.js';
import { procAvailable } from '../../src/targets/process-table.js';
import { tempDir } from '../e2e/cli.js';
import { builtSpecgate, declarePeer } from '../helpers/peer.js';
import { rejection } from '../helpers/rejection.js';
import { running, stoppedWithin } from '../helpers/process-alive.js';

const fixtures = fileURLToPath(new URL('../fixtures/targets/', import.meta.url));
const node = process.execPath;
const built = builtSpecgate('src/targets/exec-worker.js');
const hasSetsid = spawnSync('sh', ['-c', 'command -v setsid'], { encoding: 'utf8' }).status === 0;
const tmp = tempDir('specgate-exec-thread-');
afterAll(() => tmp.remove());



async function fileWithin(path: string, ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  while (!existsSync(path) || readFileSync(path, 'utf8').trim() === '') {
    if (Date.now() > deadline) throw new Error(`${path} did not appear`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return readFileSync(path, 'utf8').trim();
}

declarePeer(built);

describe.skipIf(built.skip)('exec invocations in a worker thread', () => {
  const runner = createExecRunner();
  afterAll(() => runner.close());

  it('runs them in the worker thread', () => {
    expect(runner).toBeInstanceOf(ThreadedExecRunner);
  });

  it('hands several MB of stdout back intact, as a Buffer', async () => {
    const stdin = new Uint8Array(6 * 1024 * 1024).map((_, i) => (i * 31 + (i >> 11)) & 0xff);
    const res = await runner.run({ command: node, args: [join(fixtures, 'echo-stdin.mjs')], stdin });
    expect(res.exitCode).toBe(0);
    expect(Buffer.isBuffer(res.stdout)).toBe(true);
    expect(Buffer.compare(res.stdout, stdin)).toBe(0);
    // the caller's stdin is its own still (copied, not transferred)
    expect(stdin.byteLength).toBe(6 * 1024 * 1024);
    expect(res.durationMs).toBeGreaterThan(0);
  });

  it('times out with SG_TARGET_TIMEOUT, its detail intact, and kills the grandchild', async () => {
    const pidFile = join(tmp.dir, 'timeout.pid');
    const err = await rejection(runner.run({ command: node, args: [join(fixtures, 'spawn-grandchild.mjs'), pidFile, 'hang'], timeoutMs: 1200 }));
    expect(err.code).toBe('SG_TARGET_TIMEOUT');
    expect(err.message).toMatch(/within 1200 ms/);
    expect(err.detail).toMatchObject({ command: node, timeoutMs: 1200 });
    expect(String(err.detail?.stderr)).toMatch(/started grandchild \d+/);
    expect(await stoppedWithin(Number(readFileSync(pidFile, 'utf8')), 3000)).toBe(true);
  });

  it('rejects with the abort reason itself once the family is killed, when aborted mid-run', async () => {
    const pidFile = join(tmp.dir, 'abort.pid');
    const ac = new AbortController();
    const p = runner.run({ command: node, args: [join(fixtures, 'spawn-grandchild.mjs'), pidFile, 'hang'], signal: ac.signal, timeoutMs: 20_000 });
    const grandchild = Number(await fileWithin(pidFile, 10_000));
    const reason = new Error('case cancelled');
    const start = Date.now();
    ac.abort(reason);
    await expect(p).rejects.toBe(reason);
    expect(Date.now() - start).toBeLessThan(3000);
    expect(await stoppedWithin(grandchild, 3000)).toBe(true);
  });

  it('rejects at once when already aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('too late'));
    await expect(runner.run({ command: node, args: ['-e', ''], signal: ac.signal })).rejects.toThrow('too late');
  });

  it('maps spawn errors to SG_TARGET_UNREACHABLE with their messages, details and cause', async () => {
    const missing = join(tmp.dir, 'no-such-plugin');
    const notFound = await rejection(runner.run({ command: missing }));
    expect(notFound.code).toBe('SG_TARGET_UNREACHABLE');
    expect(notFound.message).toBe(`the executable ${missing} was not found; check exec.command in the target profile (an absolute path, executable by this user)`);
    expect(notFound.detail).toEqual({ command: missing, errorCode: 'ENOENT' });
    expect(notFound.cause).toBeInstanceOf(Error);
    expect((notFound.cause as NodeJS.ErrnoException).code).toBe('ENOENT');

    const denied = await rejection(runner.run({ command: join(fixtures, 'not-executable.sh') }));
    expect([denied.code, denied.detail?.errorCode]).toEqual(['SG_TARGET_UNREACHABLE', 'EACCES']);
    expect(denied.message).toMatch(/is not executable \(permission denied\)/);

    const noCwd = join(tmp.dir, 'no-such-folder');
    const cwd = await rejection(runner.run({ command: node, args: ['-e', ''], cwd: noCwd }));
    expect(cwd.message).toBe(`the working folder ${noCwd} for ${node} does not exist; check exec.cwd in the target profile`);
    expect(cwd.detail).toEqual({ command: node, cwd: noCwd, errorCode: 'ENOENT' });
  });

  it.runIf(procAvailable() && hasSetsid)('sweeps a descendant that left the group and cleared its environment', async () => {
    const pidFile = join(tmp.dir, 'left.pid');
    // the invocation lives a second after its descendant leaves: the family reads the ends of its
    // pipes once, right after the start, and a leader gone before that read (a starved thread on
    // a loaded machine) leaves such a descendant to the other marks, none of which it keeps
    const script = `setsid env -i sleep 30 & p=$!; echo $p > '${pidFile}'; n=0; while [ $n -lt 500 ] && [ "$(cat /proc/$p/comm)" != sleep ]; do n=$((n+1)); done; sleep 1; printf answer`;
    const res = await runner.run({ command: '/bin/sh', args: ['-c', script], timeoutMs: 20_000 });
    expect(Buffer.from(res.stdout).toString()).toBe('answer');
    expect(await stoppedWithin(Number(readFileSync(pidFile, 'utf8')), 3000)).toBe(true);
  });

  it.runIf(procAvailable() && hasSetsid)('ends its families, even what only a followed parent link ties in, when the last sweep runs in the calling thread', async () => {
    const pidFile = join(tmp.dir, 'followed.pid');
    // no tag, no group, no pipe of ours, and (its parent gone) no parent link: only the worker,
    // which followed the parent's children while it ran, knows it
    const inner = `setsid env -i sleep 30 </dev/null >/dev/null 2>&1 & p=$!; n=0; while [ $n -lt 500 ] && [ "$(cat /proc/$p/comm)" != sleep ]; do n=$((n+1)); done; sleep ${(10 * FOLLOW_MS) / 1000}; echo "$$ $p" > '${pidFile}'`;
    writeFileSync(join(tmp.dir, 'leaves.sh'), inner);
    const p = runner.run({ command: '/bin/sh', args: ['-c', `sh '${join(tmp.dir, 'leaves.sh')}'; sleep 30`], timeoutMs: 20_000 });
    const [parent, pid] = (await fileWithin(pidFile, 10_000)).split(' ').map(Number) as [number, number];
    expect(await stoppedWithin(parent, 3000)).toBe(true);
    expect(running(pid)).toBe(true);
    // as specgate does exiting, or at a second Ctrl-C: synchronous, in this thread
    sweepEverythingStarted();
    expect(running(pid)).toBe(false);
    expect((await p).signal).toBe('SIGKILL');
  });

  it('runs many invocations at once, each answer its own', async () => {
    const ids = Array.from({ length: 48 }, (_, i) => `invocation ${i} `.repeat(200 + i));
    const answers = await Promise.all(ids.map((id) => runner.run({ command: 'cat', stdin: Buffer.from(id) })));
    expect(answers.map((a) => Buffer.from(a.stdout).toString())).toEqual(ids);
  });

  it('starts a new worker for the invocation after a close', async () => {
    await runner.close();
    const res = await runner.run({ command: node, args: ['-e', 'process.stdout.write(process.env.SG_T ?? "")'], env: { SG_T: 'again' } });
    expect(Buffer.from(res.stdout).toString()).toBe('again');
  });

  it('keeps specgate running while an invocation is in flight, and not once idle', () => {
    const module = join(process.cwd(), 'dist/src/targets/exec-runner.js');
    // nothing but the invocation keeps this process alive; it is never closed
    const code = `const { createExecRunner } = await import(${JSON.stringify(pathToFileURL(module).href)});
const res = await createExecRunner().run({ command: 'sh', args: ['-c', 'sleep 0.3; printf done'] });
process.stdout.write(Buffer.from(res.stdout).toString());`;
    const start = Date.now();
    const r = spawnSync(node, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 20_000 });
    expect([r.status, r.stdout]).toEqual([0, 'done']);
    expect(Date.now() - start).toBeLessThan(10_000);
  });
});

describe.skipIf(built.skip)('a worker thread that dies', () => {
  const runner = new ThreadedExecRunner(new URL('../fixtures/targets/exec-worker-dies.mjs', import.meta.url), runExec);
  afterAll(() => runner.close());

  it.runIf(procAvailable() && hasSetsid)('fails what was in flight with SG_INTERNAL, kills what it started, and the next invocation gets a new worker', async () => {
    const pidFile = join(tmp.dir, 'orphan.pid');
    // a child that left the group (its tag kept) and a parent that waits
    const script = `setsid sleep 30 & echo $! > '${pidFile}'; sleep 30`;
    const other = runner.run({ command: 'sh', args: ['-c', 'sleep 30'], timeoutMs: 20_000 });
    const err = await rejection(runner.run({ command: 'sh', args: ['-c', script], env: { DIE_AFTER_MS: '800' }, timeoutMs: 20_000 }));
    expect(err.code).toBe('SG_INTERNAL');
    expect(err.message).toMatch(/^sh was stopped with everything it started: the worker thread running it ended unexpectedly \(planted worker failure\)/);
    expect(err.detail).toMatchObject({ command: 'sh', workerError: 'planted worker failure' });
    expect((await rejection(other)).code).toBe('SG_INTERNAL');
    expect(await stoppedWithin(Number(readFileSync(pidFile, 'utf8')), 3000)).toBe(true);

    const res = await runner.run({ command: 'sh', args: ['-c', 'printf alive'] });
    expect(Buffer.from(res.stdout).toString()).toBe('alive');
  });
});

/** What a client's mirror was told, in order. */
function recorder(): { news: ClientMirror; told: string[]; final: Promise<void> } {
  const told: string[] = [];
  let settle = (): void => undefined;
  const final = new Promise<void>((resolve) => (settle = resolve));
  return {
    told,
    final,
    news: {
      output: (stream, text) => void told.push(`${stream}: ${text}`),
      exit: (exit: ClientExit) => void told.push(`exit ${exit.code ?? exit.signal ?? 'none'}`),
      final: () => {
        told.push('final');
        settle();
      },
      failed: (e) => {
        told.push(`failed ${(e as Error & { code?: string }).code}: ${e.message}`);
        settle();
      },
    },
  };
}

describe.skipIf(built.skip)('client launches in the worker thread', () => {
  it('tells the output, the end and the finality in order, and stops on request', async () => {
    const runner = createExecRunner() as ThreadedExecRunner;
    expect(await runner.whenReady()).toBe(true);
    const r = recorder();
    const client = runner.launch({ argv: ['sh', '-c', 'echo one; echo two >&2; exit 3'], env: { PATH: process.env['PATH'] ?? '' }, what: 'client' }, r.news);
    expect(client).toBeDefined();
    await r.final;
    expect(r.told.filter((t) => t.startsWith('stdout'))).toEqual(['stdout: one\n']);
    expect(r.told).toContain('stderr: two\n');
    expect(r.told.slice(-2)).toEqual(['exit 3', 'final']);
    expect(await client?.stop()).toEqual({ code: 3, signal: null });
    await runner.close();
  });

  it('hands no client launch to a worker of another build', async () => {
    const runner = new ThreadedExecRunner(new URL('../fixtures/targets/exec-worker-other-build.mjs', import.meta.url), runExec);
    expect(await runner.whenReady()).toBe(false);
    expect(runner.launch({ argv: ['true'], env: {}, what: 'client' }, recorder().news)).toBeUndefined();
    await runner.close();
  });

  it.runIf(procAvailable() && hasSetsid)('ends the client of a worker that dies, with why, and kills what it started', async () => {
    const runner = new ThreadedExecRunner(new URL('../fixtures/targets/exec-worker-dies.mjs', import.meta.url), runExec);
    expect(await runner.whenReady()).toBe(true);
    const pidFile = join(tmp.dir, 'client-orphan.pid');
    const r = recorder();
    const client = runner.launch({ argv: ['sh', '-c', `setsid sleep 30 & echo $! > '${pidFile}'; echo up; sleep 30`], env: { PATH: process.env['PATH'] ?? '', DIE_AFTER_MS: '800' }, what: 'client' }, r.news);
    await r.final;
    expect(r.told).toContain('stdout: up\n');
    expect(r.told.at(-1)).toBe('failed SG_INTERNAL: a client application was stopped with everything it started: the worker thread running it ended unexpectedly (planted worker failure); this is a bug in specgate, please report it');
    expect(await client?.stop()).toEqual({ code: null, signal: null });
    expect(await stoppedWithin(Number(readFileSync(pidFile, 'utf8')), 3000)).toBe(true);
    await runner.close();
  });

  it('keeps specgate running while a client runs, and not once it has ended', () => {
    const module = join(process.cwd(), 'dist/src/targets/client-process/client-process.js');
    // nothing but the client keeps this process alive; it is never stopped
    const code = `const m = await import(${JSON.stringify(pathToFileURL(module).href)});
if (!(await m.clientLaunchesReady())) throw new Error('no worker');
const c = m.launchClient(['sh', '-c', 'sleep 0.3; printf done'], {}, new AbortController().signal);
c.waitForExit(10000).then(() => process.stdout.write(c.startedIn + ' ' + c.stdout()));`;
    // a file, not -e: a worker thread inherits --input-type, which it cannot load a file under
    const script = join(tmp.dir, 'client-keeps-running.mjs');
    writeFileSync(script, code);
    const start = Date.now();
    const r = spawnSync(node, [script], { encoding: 'utf8', timeout: 20_000 });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'worker done', '']);
    expect(Date.now() - start).toBeLessThan(10_000);
    // a worker started ahead of any launch, and never used, keeps nothing running either
    writeFileSync(script, `const m = await import(${JSON.stringify(pathToFileURL(module).href)});\nm.prepareClientLaunches();\nprocess.stdout.write('prepared');`);
    const idle = spawnSync(node, [script], { encoding: 'utf8', timeout: 10_000 });
    expect([idle.status, idle.stdout, idle.stderr]).toEqual([0, 'prepared', '']);
  });
});

describe.skipIf(built.skip)('a worker thread stuck when it is closed', () => {
  it.runIf(procAvailable() && hasSetsid)('is terminated after the close has waited, and what it started is killed by its tags and groups', async () => {
    const runner = new ThreadedExecRunner(new URL('../fixtures/targets/exec-worker-stuck.mjs', import.meta.url), runExec);
    const pidFile = join(tmp.dir, 'stuck.pid');
    // a child that left the group (its tag kept) and a parent that waits: only a sweep ends them
    const inFlight = runner.run({ command: 'sh', args: ['-c', `setsid sleep 30 & echo "$$ $!" > '${pidFile}'; sleep 30`], timeoutMs: 20_000 });
    const [parent, child] = (await fileWithin(pidFile, 10_000)).split(' ').map(Number) as [number, number];
    expect(running(parent) && running(child)).toBe(true);
    const started = Date.now();
    await runner.close();
    // it waited for the worker, then gave up on it
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    const err = await rejection(inFlight);
    expect(err.code).toBe('SG_INTERNAL');
    expect(err.message).toMatch(/the exec runner was closed \(the run ended\) before it finished/);
    expect(await stoppedWithin(parent, 3000)).toBe(true);
    expect(await stoppedWithin(child, 3000)).toBe(true);
  });
});

describe('where worker threads cannot run', () => {
  it('runs invocations in the calling thread', async () => {
    const runner = new ThreadedExecRunner(new URL('file:///nonexistent/specgate/exec-worker.js'), runExec);
    const res = await runner.run({ command: 'sh', args: ['-c', 'printf here'] });
    expect(Buffer.from(res.stdout).toString()).toBe('here');
    const missing = await rejection(runner.run({ command: join(tmp.dir, 'absent') }));
    expect(missing.code).toBe('SG_TARGET_UNREACHABLE');
    await runner.close();
  });

  it('is what createExecRunner gives for thread: main', () => {
    expect(createExecRunner({ thread: 'main' })).not.toBeInstanceOf(ThreadedExecRunner);
  });
});
