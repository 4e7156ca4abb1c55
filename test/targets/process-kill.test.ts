import { spawn, spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killMarked, withDescendants } from '../../src/targets/process-kill.js';
import { procAvailable, readEntry, type ProcessEntry } from '../../src/targets/process-table.js';
import { killMarked as killByToken, processesMarked, survivorsOf } from '../helpers/process-scan.js';
import { tempDir } from '../e2e/cli.js';

const entry = (pid: number, ppid: number, state = 'S'): ProcessEntry => ({ pid, ppid, pgid: pid, sid: pid, state, start: pid });

describe('withDescendants', () => {
  it('finds the roots and everything below them by parent links, leaving out what has ended', () => {
    const table = [entry(1, 0), entry(10, 1), entry(11, 10), entry(12, 11), entry(13, 11, 'Z'), entry(20, 1), entry(21, 20)];
    expect([...withDescendants(table, [entry(10, 1)]).keys()].sort((a, b) => a - b)).toEqual([10, 11, 12]);
    expect([...withDescendants(table, [entry(13, 11, 'Z')]).keys()]).toEqual([]);
  });
});

const SLEEP = spawnSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).stdout.trim();
const hasSetsid = spawnSync('sh', ['-c', 'command -v setsid'], { encoding: 'utf8' }).status === 0;
const folders: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) {
    killByToken(f.dir);
    f.remove();
  }
});

describe.runIf(procAvailable() && hasSetsid && SLEEP !== '')('killMarked', () => {
  it('kills a process that keeps starting children in sessions of their own, and every one of them', async () => {
    const tmp = tempDir('specgate-kill-');
    folders.push(tmp);
    symlinkSync(SLEEP, join(tmp.dir, 'sleeper'));
    // each child leaves the session at once; once its parent is gone no parent link leads to it
    const loop = `i=0; while [ $i -lt 200 ]; do setsid '${tmp.dir}/sleeper' 30 </dev/null >/dev/null 2>&1 & i=$((i+1)); done; wait`;
    const root = spawn('sh', ['-c', loop, `${tmp.dir}/forker`], { detached: true, stdio: 'ignore' });
    const rootPid = root.pid ?? -1;
    const rootStart = readEntry(rootPid)?.start;
    // up to 10 s for the first five: on a loaded machine the loop may take seconds to start them
    for (let i = 0; i < 1000 && processesMarked(join(tmp.dir, 'sleeper')).length < 5; i++) await new Promise((r) => setTimeout(r, 10));
    const killed = killMarked((table) => table.filter((e) => e.pid === rootPid && e.start === rootStart));
    expect(killed).toContain(rootPid);
    expect(killed.length).toBeGreaterThan(5);
    expect(await survivorsOf(tmp.dir)).toEqual([]);
  }, 30_000);

  it('kills nothing when nothing is marked', () => {
    expect(killMarked(() => [])).toEqual([]);
  });
});
