import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessFamily } from '../../src/targets/process-family.js';
import { PROCESS_TAG_VAR } from '../../src/targets/process-sweep.js';
import { procAvailable, type ProcessEntry } from '../../src/targets/process-table.js';
import { killMarked, processesMarked, survivorsOf } from '../helpers/process-scan.js';
import { tempDir } from '../e2e/cli.js';

const SLEEP = spawnSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).stdout.trim();
const hasSetsid = spawnSync('sh', ['-c', 'command -v setsid'], { encoding: 'utf8' }).status === 0;
const folders: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) {
    killMarked(f.dir);
    f.remove();
  }
});

/** A folder marking every process started from it, with `sleeper` (sleep(1)) and `script` in it. */
function folder(lines: string[]): { dir: string; script: string } {
  const tmp = tempDir('specgate-family-');
  folders.push(tmp);
  symlinkSync(SLEEP, join(tmp.dir, 'sleeper'));
  const script = join(tmp.dir, 'leader.sh');
  writeFileSync(script, ['#!/bin/sh', `dir='${tmp.dir}'`, 'S="$dir/sleeper"', ...lines, ''].join('\n'));
  chmodSync(script, 0o755);
  return { dir: tmp.dir, script };
}

function start(family: ProcessFamily, script: string): ChildProcess {
  const child = spawn(script, [], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: family.env(process.env) });
  family.adopt(child);
  return child;
}

async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ready(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(ready()).toBe(true);
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

describe.runIf(procAvailable() && hasSetsid && SLEEP !== '')('a process family', () => {
  it('starts its leader with its own tag', () => {
    const family = new ProcessFamily();
    expect(family.env({ A: '1' })).toEqual({ A: '1', [PROCESS_TAG_VAR]: family.tag });
    expect(new ProcessFamily().tag).not.toBe(family.tag);
  });

  it('finds a child that left the session and cleared its environment, once followed while its parent ran', async () => {
    const { dir, script } = folder([
      'setsid env -i "$S" 30 </dev/null >/dev/null 2>&1 &',
      'echo $! > "$dir/child.pid"',
      // the parent stays until told to go
      'while [ ! -e "$dir/go" ]; do sleep 0.02; done',
    ]);
    const family = new ProcessFamily();
    const leader = start(family, script);
    const pidFile = join(dir, 'child.pid');
    await until(() => existsSync(pidFile) && processesMarked(join(dir, 'sleeper')).length === 1);
    family.follow();
    writeFileSync(join(dir, 'go'), '');
    await exited(leader);
    // no mark is left on it but the parent link noted while the parent ran
    family.end();
    expect(await survivorsOf(dir)).toEqual([]);
    expect(readFileSync(pidFile, 'utf8').trim()).not.toBe('');
  });

  it('kills only its own: another family\'s children keep running until that family ends', async () => {
    const lines = ['setsid "$S" 30 </dev/null >/dev/null 2>&1 &', 'exit 0'];
    const a = folder(lines);
    const b = folder(lines);
    const fa = new ProcessFamily();
    const fb = new ProcessFamily();
    const la = start(fa, a.script);
    const lb = start(fb, b.script);
    await Promise.all([exited(la), exited(lb)]);
    await until(() => processesMarked(join(a.dir, 'sleeper')).length === 1 && processesMarked(join(b.dir, 'sleeper')).length === 1);
    fa.end();
    expect(await survivorsOf(a.dir)).toEqual([]);
    expect(processesMarked(join(b.dir, 'sleeper'))).toHaveLength(1);
    fb.end();
    expect(await survivorsOf(b.dir)).toEqual([]);
  });

  it('finds a grandchild that left the session once its parent and the leader had exited (the processes started since the leader read)', async () => {
    // the leader exits at once; its child starts the grandchild in a session of its own, a
    // moment later, and exits: nothing but the tag leads to it (its output goes elsewhere)
    const { dir, script } = folder([
      '( sleep 0.3; setsid "$S" 30 </dev/null >/dev/null 2>&1 & ) </dev/null >/dev/null 2>&1 &',
      'exit 0',
    ]);
    const family = new ProcessFamily();
    const leader = start(family, script);
    await exited(leader);
    await until(() => processesMarked(join(dir, 'sleeper')).length === 1);
    const [daemon] = processesMarked(join(dir, 'sleeper'));
    expect(daemon?.pid).not.toBe(leader.pid);
    family.end();
    expect(await survivorsOf(dir)).toEqual([]);
  });

  it('finds a child holding its pipe that left the session and cleared its environment after its parent exited', async () => {
    // it exits a second after the child sleeps: the family reads which ends its stdio are once,
    // right after the start, and a leader already gone by then (its start returned late on a
    // loaded machine) leaves such a child no mark; that gap is the documented one
    const { dir, script } = folder([
      'setsid env -i "$S" 30 >&2 &',
      'p=$!; n=0; while [ $n -lt 500 ] && [ "$(cat /proc/$p/comm)" != sleeper ]; do n=$((n+1)); done',
      'sleep 1',
      'exit 0',
    ]);
    const family = new ProcessFamily();
    const leader = start(family, script);
    await exited(leader);
    await until(() => processesMarked(join(dir, 'sleeper')).length === 1);
    family.end();
    expect(await survivorsOf(dir)).toEqual([]);
  });
});

describe.runIf(procAvailable())('a process family whose leader\'s pid went to another process', () => {
  /** The family's own view: its leader and which processes of a table it counts as its own. */
  interface Inside {
    leader: { pid: number; start: number };
    marked(table: readonly ProcessEntry[], leader: { pid: number; start: number }): ProcessEntry[];
  }
  const entry = (pid: number, start: number, group: number): ProcessEntry => ({ pid, ppid: 1, pgid: group, sid: group, state: 'S', start });

  it('counts the group and session of that ID as its own only until the pid names another process', async () => {
    const family = new ProcessFamily();
    const leader = spawn('/bin/sh', ['-c', 'exit 0'], { detached: true, stdio: 'ignore', env: family.env(process.env) });
    family.adopt(leader);
    const inside = family as unknown as Inside;
    const { pid, start } = inside.leader;
    // while the leader may still run, a younger process in its session is a member
    const member = entry(pid + 100_000, start + 5, pid);
    expect(inside.marked([member], inside.leader).map((e) => e.pid)).toEqual([member.pid]);
    await exited(leader);
    // the pid now names a newcomer leading a session of its own, with a child of its own in it
    const newcomer = entry(pid, start + 50, pid);
    const its = entry(pid + 100_001, start + 60, pid);
    expect(inside.marked([newcomer, its], inside.leader)).toEqual([]);
    family.end();
  });
});
