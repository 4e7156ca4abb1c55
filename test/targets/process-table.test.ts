import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childPids, envVar, fdLinks, holdsOneOf, parseStat, procAvailable, readEntry, readProcessTable } from '../../src/targets/process-table.js';

describe('parseStat', () => {
  it('reads the fields after a command name holding spaces and parentheses', () => {
    // fields 3.. : state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime priority nice threads itreal starttime
    const line = '4242 (a (b) c) S 17 4242 4240 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10';
    expect(parseStat(line)).toEqual({ pid: 4242, state: 'S', ppid: 17, pgid: 4242, sid: 4240, start: 987654 });
  });

  it('refuses a line that is not a stat line', () => {
    expect(parseStat('not a stat line')).toBeUndefined();
  });
});

describe.runIf(procAvailable())('the process table', () => {
  it('shows this process with its parent, and a start time', () => {
    const me = readEntry(process.pid);
    expect(me?.ppid).toBe(process.ppid);
    expect(me?.start).toBeGreaterThan(0);
    expect(readProcessTable().some((e) => e.pid === process.pid)).toBe(true);
  });

  it('reads a child\'s environment, its place among our children and the ends of its stdio', async () => {
    const child = spawn('sleep', ['30'], { env: { ...process.env, SPECGATE_TABLE_TEST: 'x=y' }, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise<void>((resolve) => child.once('spawn', () => resolve()));
      const pid = child.pid ?? -1;
      expect(envVar(pid, 'SPECGATE_TABLE_TEST')).toBe('x=y');
      expect(envVar(pid, 'SPECGATE_TABLE_TES')).toBeUndefined();
      expect(childPids(process.pid) ?? [pid]).toContain(pid);
      // stdin is /dev/null: neither a pipe nor a socket
      const ends = fdLinks(pid, [0, 1]);
      expect(ends).toEqual([expect.stringMatching(/^(pipe|socket):\[\d+\]$/)]);
      expect(holdsOneOf(pid, new Set(ends))).toBe(true);
      expect(holdsOneOf(pid, new Set(['pipe:[0]']))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('reads nothing of a process that is gone', () => {
    expect(readEntry(0x3fffffff)).toBeUndefined();
    expect(envVar(0x3fffffff, 'PATH')).toBeUndefined();
    expect(childPids(0x3fffffff)).toBeUndefined();
  });
});
