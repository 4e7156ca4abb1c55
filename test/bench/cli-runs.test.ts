/**
 * bench/cli-runs.ts: the peak-memory probe the memory benchmarks (hostile-memory, scale,
 * har-recording) read. A process started by fork and exec inherits into getrusage's maxRSS the
 * resident memory its parent had at the fork; the probe must give the measured process's own peak.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPeak, writePreload } from '../../bench/cli-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-peak-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function peakOf(script: string): Promise<{ kb: number; cpuUs: number }> {
  const file = join(dir, `peak-${Math.random().toString(36).slice(2)}.txt`);
  const preload = writePreload(dir);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore', env: { ...process.env, SG_PEAK_FILE: file, NODE_OPTIONS: `--require ${preload}` } });
    child.on('error', reject);
    child.on('close', () => resolve(readPeak(file)));
  });
}

describe('the peak-memory probe', () => {
  it.runIf(process.platform === 'linux')('gives the measured process its own peak, not the resident memory of the process that started it', async () => {
    // the starting process holds 256 MB more than a bare node needs when it starts the measured one
    const held = Buffer.alloc(256 * 1024 * 1024, 1);
    const parentMb = process.memoryUsage().rss / 1024 / 1024;
    const bare = await peakOf('0');
    expect(held[held.length - 1]).toBe(1);
    expect(bare.kb / 1024).toBeGreaterThan(10);
    expect(bare.kb / 1024).toBeLessThan(parentMb - 200);
  });

  it('sees memory the measured process itself takes, and its CPU time', async () => {
    const small = await peakOf('0');
    const big = await peakOf('const b = Buffer.alloc(128 * 1024 * 1024, 1); if (b[0] !== 1) process.exit(1);');
    expect(big.kb - small.kb).toBeGreaterThan(100 * 1024);
    expect(big.cpuUs).toBeGreaterThan(0);
  });

  it('is NaN for a process that wrote no figure', () => {
    expect(readPeak(join(dir, 'none.txt'))).toEqual({ kb: NaN, cpuUs: NaN });
  });
});
