/**
 * Nothing a target process starts outlives specgate, nor the invocation that started it: a
 * plugin's or a compiler's children in a session of their own (`setsid`), double-forked, holding
 * stdout after the plugin exits, or with a cleared environment; the same left by a database
 * adapter that exits and by a client application; and what a plugin started when SIGTERM stops
 * the run. Every process the targets below start names the test's temp folder in its command
 * line (a `sleeper` link to sleep(1) there), and /proc is scanned for it once specgate has exited.
 * Each run still ends by itself and writes its report.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, assertBuilt, caseOf, readReport, runCli, tempDir, writeProfile } from './cli.js';
import { killMarked, survivorsOf } from '../helpers/process-scan.js';

const SLEEP = spawnSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).stdout.trim();
const hasSetsid = spawnSync('sh', ['-c', 'command -v setsid'], { encoding: 'utf8' }).status === 0;
/** An empty CodeGeneratorResponse but for supported_features = 1 (field 2, varint): a valid answer. */
const RESPONSE_OCTAL = '\\020\\001';

const folders: ReturnType<typeof tempDir>[] = [];
/** A fresh folder whose path marks every process started from it; `sleeper` there runs sleep(1). */
function markedFolder(): string {
  const tmp = tempDir('specgate-leftovers-');
  folders.push(tmp);
  symlinkSync(SLEEP, join(tmp.dir, 'sleeper'));
  return tmp.dir;
}

beforeAll(() => assertBuilt());
afterEach(() => {
  // whatever a failing test left running goes here, by pid, before its folder does
  for (const f of folders.splice(0)) {
    killMarked(f.dir);
    f.remove();
  }
});

/** Writes an executable shell script into `dir`. */
function script(dir: string, name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, ['#!/bin/sh', `dir='${dir}'`, 'S="$dir/sleeper"', ...lines, ''].join('\n'));
  chmodSync(file, 0o755);
  return file;
}

/** Shell lines: waits (boundedly) until the process `$1` runs the sleeper. */
const RUNNING = [
  'running() { tr "\\0" " " < "/proc/$1/cmdline" 2>/dev/null | grep -q sleeper; }',
  'await_sleeper() { n=0; while [ $n -lt 200 ] && ! running "$1"; do sleep 0.02; n=$((n+1)); done; }',
];

/**
 * A plugin (or compiler) that answers and exits 0, leaving sleepers behind: (a) in a session of
 * its own, (b) double-forked (its parent exits at once), (c) holding stdout. The first invocation
 * also leaves (d) one in its own session with an empty environment, and stays a second so that
 * its child is seen before it exits. Each invocation first notes in outlived.pids what the
 * previous one left that still runs.
 */
function leavingPlugin(dir: string): string {
  return script(dir, 'plugin.sh', [
    ...RUNNING,
    'if [ -f "$dir/left.pids" ]; then',
    '  for pid in $(cat "$dir/left.pids"); do',
    '    state=$(sed "s/.*) //" "/proc/$pid/stat" 2>/dev/null | cut -c1)',
    '    case "$state" in ""|Z|X|x) ;; *) echo "$pid $state" >> "$dir/outlived.pids" ;; esac',
    '  done',
    'fi',
    ': > "$dir/left.pids"',
    'setsid "$S" 120 </dev/null >/dev/null 2>&1 &',
    'echo $! >> "$dir/left.pids"',
    '( setsid "$S" 121 </dev/null >/dev/null 2>&1 & echo $! >> "$dir/left.pids" )',
    '"$S" 122 &',
    'echo $! >> "$dir/left.pids"',
    'if [ ! -e "$dir/first.done" ]; then',
    '  : > "$dir/first.done"',
    '  setsid env -i "$S" 123 </dev/null >/dev/null 2>&1 &',
    '  echo $! >> "$dir/left.pids"',
    '  await_sleeper $!',
    '  sleep 1',
    'fi',
    'cat "$dir/left.pids" >> "$dir/all.pids"',
    `printf '${RESPONSE_OCTAL}'`,
    'exit 0',
  ]);
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '') : [];
}

describe.runIf(process.platform === 'linux' && hasSetsid && SLEEP !== '')('processes left behind by what specgate starts', () => {
  it('a plugin\'s detached, double-forked, stdout-holding and environment-clearing children end with each invocation, and none outlives the run', async () => {
    const dir = markedFolder();
    const plugin = leavingPlugin(dir);
    const json = join(dir, 'plugin.json');
    const res = await runCli([
      'run', '--suite', 'plugin', '--plugin', plugin, '--concurrency', '1',
      '--case', 'plugin-answers-an-empty-request', '--case', 'plugin-answers-a-small-request',
      '--report', `json=${json}`,
    ], { cwd: dir });
    // the plugin ran twice and left four processes, then three
    expect(lines(join(dir, 'all.pids')), res.stderr).toHaveLength(7);
    // judged on its answer, not held up by the child on its stdout
    const report = readReport(json);
    expect(caseOf(report, 'plugin-answers-an-empty-request').outcome).toBe('passed');
    expect(caseOf(report, 'plugin-answers-a-small-request').outcome).toBe('passed');
    expect(res.code).toBe(0);
    // nothing of the first invocation was running when the second started
    expect(lines(join(dir, 'outlived.pids'))).toEqual([]);
    expect(await survivorsOf(dir)).toEqual([]);
  }, 60_000);

  it('a compiler\'s children do not outlive the run', async () => {
    const dir = markedFolder();
    const compiler = leavingPlugin(dir);
    const json = join(dir, 'compiler.json');
    const res = await runCli(['run', '--suite', 'plugin', '--compiler', compiler, '--case', 'compiler-writes-valid-names', '--report', `json=${json}`], { cwd: dir });
    expect(lines(join(dir, 'all.pids')).length, res.stderr).toBeGreaterThanOrEqual(4);
    // not a compiler at all: the case fails on what it did, it is not stopped for hanging
    expect(caseOf(readReport(json), 'compiler-writes-valid-names').outcome).toBe('failed');
    expect(await survivorsOf(dir)).toEqual([]);
  }, 60_000);

  it('a database adapter that forks a child holding stdout and exits leaves nothing running', async () => {
    const dir = markedFolder();
    const adapter = script(dir, 'adapter.sh', [
      ...RUNNING,
      '"$S" 124 &',
      'echo $! >> "$dir/all.pids"',
      'setsid env -i "$S" 125 </dev/null >/dev/null 2>&1 &',
      'echo $! >> "$dir/all.pids"',
      'await_sleeper $!',
      'sleep 1',
      'exit 0',
    ]);
    const profile = writeProfile(dir, 'adapter', { suites: { collation: { database: { exec: [adapter] } } } });
    const json = join(dir, 'adapter.json');
    const res = await runCli(['run', '--suite', 'collation', '--target', profile, '--case', 'doc-locale-required', '--report', `json=${json}`], { cwd: dir });
    expect(lines(join(dir, 'all.pids')).length, res.stderr).toBeGreaterThanOrEqual(2);
    // the adapter's exit is the error, at once: not a wait for the child holding its stdout
    const c = caseOf(readReport(json), 'doc-locale-required');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_PROTOCOL']);
    expect(c.reason).toContain('exited with code 0');
    expect(res.code).toBe(3);
    expect(await survivorsOf(dir)).toEqual([]);
  }, 60_000);

  it('a client application that leaves setsid children leaves nothing running', async () => {
    const dir = markedFolder();
    const client = script(dir, 'client.sh', [
      ...RUNNING,
      'setsid "$S" 126 </dev/null >/dev/null 2>&1 &',
      'echo $! >> "$dir/all.pids"',
      'setsid env -i "$S" 127 </dev/null >/dev/null 2>&1 &',
      'echo $! >> "$dir/all.pids"',
      'await_sleeper $!',
      'sleep 1',
      'exit 0',
    ]);
    const json = join(dir, 'client.json');
    const res = await runCli(['run', '--suite', 'merchant', '--merchant-client', client, '--case', 'client-prefix', '--report', `json=${json}`], { cwd: dir });
    expect(lines(join(dir, 'all.pids')), res.stderr).toHaveLength(2);
    // judged on the client's own exit: it sent nothing
    expect(caseOf(readReport(json), 'client-prefix').reason).toContain('exit status 0');
    expect(await survivorsOf(dir)).toEqual([]);
  }, 60_000);

  it('SIGTERM during a plugin that hangs leaves nothing of it running', async () => {
    const dir = markedFolder();
    const plugin = script(dir, 'hanging.sh', [
      ...RUNNING,
      'setsid env -i "$S" 128 </dev/null >/dev/null 2>&1 &',
      'pid=$!',
      'await_sleeper $pid',
      'echo $pid > "$dir/ready"',
      '"$S" 60',
    ]);
    const json = join(dir, 'hanging.json');
    const cli = spawn(process.execPath, [BIN, 'run', '--suite', 'plugin', '--plugin', plugin, '--case', 'plugin-answers-an-empty-request', '--report', `json=${json}`], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: 'ignore',
    });
    // the status a shell reports: the code, or 128 + the number of the signal that ended it
    const ended = new Promise<number | null>((resolve) => cli.on('exit', (code, sig) => resolve(code ?? (sig ? 128 + constants.signals[sig] : null))));
    try {
      for (let i = 0; i < 600 && !existsSync(join(dir, 'ready')); i++) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(join(dir, 'ready'))).toBe(true);
      cli.kill('SIGTERM');
      expect(await ended).toBe(143);
    } finally {
      if (cli.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL');
    }
    expect(readReport(json).suites.length).toBe(1);
    expect(await survivorsOf(dir)).toEqual([]);
  }, 60_000);
});
