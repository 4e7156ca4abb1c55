import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { inWindow, pidMark, readProcessesFrom, windowHolds, type PidMark } from '../../src/targets/pid-window.js';
import { procAvailable, readEntry, readProcessTable } from '../../src/targets/process-table.js';

const mark = (over: Partial<PidMark>): PidMark => ({ forks: 1000, tasks: 100, pidMax: 32768, last: 5000, ...over });

describe('the pid window', () => {
  it('runs from the first pid to the last given, round the wrap', () => {
    expect(inWindow(120, 100, 200)).toBe(true);
    expect(inWindow(99, 100, 200)).toBe(false);
    expect(inWindow(201, 100, 200)).toBe(false);
    // given past pid_max, then from the bottom again
    expect(inWindow(32000, 31000, 400)).toBe(true);
    expect(inWindow(350, 31000, 400)).toBe(true);
    expect(inWindow(20000, 31000, 400)).toBe(false);
  });

  it('is trusted only while the pids given since could not have gone all the way round', () => {
    expect(windowHolds(mark({}), mark({ forks: 1500 }))).toBe(true);
    // forks, and everything in use at the mark, could cover the whole cycle
    expect(windowHolds(mark({}), mark({ forks: 1000 + 32768 - 300 - 300 }))).toBe(false);
    expect(windowHolds(mark({ tasks: 11_000 }), mark({ forks: 1001 }))).toBe(false);
    // pid_max lowered meanwhile: the shorter cycle counts
    expect(windowHolds(mark({}), mark({ forks: 1500, pidMax: 1000 }))).toBe(false);
  });
});

describe.runIf(procAvailable())('reading the processes started since a mark', () => {
  it('reads the kernel\'s counters', () => {
    const m = pidMark();
    expect(m).toBeDefined();
    expect(m?.pidMax).toBeGreaterThan(300);
    expect(m?.tasks).toBeGreaterThan(0);
    expect(m?.forks).toBeGreaterThan(0);
  });

  it('holds every process started after the mark, and no more than the whole table', async () => {
    const before = pidMark();
    const children = [0, 1, 2].map(() => spawn('sleep', ['30'], { stdio: 'ignore' }));
    try {
      await Promise.all(children.map((c) => new Promise<void>((resolve) => c.once('spawn', () => resolve()))));
      const first = children[0]?.pid ?? -1;
      const firstStart = readEntry(first)?.start ?? -1;
      const table = readProcessTable();
      const window = readProcessesFrom(first, before);
      const pids = new Set(window.map((e) => e.pid));
      for (const c of children) expect(pids.has(c.pid ?? -1)).toBe(true);
      // whatever the whole table showed started after the first child (a later clock tick), and
      // still there after the window was read, is in the window too
      for (const e of table) {
        if (e.start > firstStart && readEntry(e.pid)?.start === e.start) expect(pids.has(e.pid)).toBe(true);
      }
      // this process is older than the window: unless a wrap put its pid in it, it is not read
      if (!inWindow(process.pid, first, pidMark()?.last ?? first)) expect(pids.has(process.pid)).toBe(false);
    } finally {
      for (const c of children) c.kill('SIGKILL');
    }
  });

  it('reads the whole table without counters from before the start', () => {
    const all = readProcessesFrom(process.pid, undefined);
    expect(all.some((e) => e.pid === process.pid)).toBe(true);
    expect(all.some((e) => e.pid === process.ppid)).toBe(true);
  });
});
