import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromRoot } from '../src/paths.js';
import { judgeFigure } from './goals.js';
import { childrenCpuMs, formatFigure, interleaveAll, roundCount, summarize, type Thunk } from './rounds.js';

/**
 * Whole CLI runs against the bundled references, as a user starts them, process start to exit:
 * the default `specgate run` (every built-in suite) and `specgate run --suite oauth` (its user
 * agent through the reference's bridge). Each figure is the median wall time of interleaved
 * rounds (at least seven, after a warm-up round each), with its spread, and the median CPU time
 * of the run and every process it waited for (plugin processes, Chromium): on a shared machine
 * the CPU says what a run cost where the wall time also says what else ran.
 *
 * `BENCH_RUNS_BASELINE=<another checkout's bin/specgate.js>` runs that CLI too, in the same
 * rounds, and prints its figures beside. `BENCH_WHOLE_RUNS=default,oauth` picks the runs.
 * Goals on two cores: the default run within 12 s, the oauth suite within 3 s.
 */

interface WholeRun {
  name: string;
  label: string;
  args: string[];
  goalS: number;
}

const RUNS: readonly WholeRun[] = [
  { name: 'default', label: 'default run (specgate run, every built-in suite)', args: [], goalS: 12 },
  { name: 'oauth', label: 'oauth suite alone (specgate run --suite oauth)', args: ['--suite', 'oauth'], goalS: 3 },
];

/** One run of `bin` with `args`; rejects unless it exits 0 (a failing run measures nothing). */
function runOnce(bin: string, args: readonly string[], dir: string, cpu: number[]): Thunk {
  return () =>
    new Promise((done, fail) => {
      const cpuBefore = childrenCpuMs();
      const start = performance.now();
      const child = spawn(process.execPath, [bin, 'run', ...args, '--no-color', '--seed', '1'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
      child.on('error', fail);
      child.on('close', (code) => {
        const ms = performance.now() - start;
        if (code !== 0) return fail(new Error(`${bin} run ${args.join(' ')} ended with ${code}: ${stderr}`));
        cpu.push(childrenCpuMs() - cpuBefore);
        done(ms / 1000);
      });
    });
}

export async function runBench(): Promise<void> {
  const picked = (process.env['BENCH_WHOLE_RUNS'] ?? '').split(',').filter(Boolean);
  const baseline = process.env['BENCH_RUNS_BASELINE'];
  const bins: Record<string, string> = { 'this build': fromRoot('bin', 'specgate.js') };
  if (baseline) bins[`baseline ${baseline}`] = resolve(baseline);
  const rounds = roundCount();
  const dir = mkdtempSync(join(tmpdir(), 'sg-bench-runs-'));
  try {
    for (const run of RUNS) {
      if (picked.length && !picked.includes(run.name)) continue;
      const cpu: Record<string, number[]> = {};
      const sides: Record<string, Thunk> = {};
      for (const [side, bin] of Object.entries(bins)) sides[side] = runOnce(bin, run.args, dir, (cpu[side] = []));
      const got = await interleaveAll(sides, { rounds, warmup: 1 });
      for (const [side, r] of Object.entries(got)) {
        // the warm-up round's CPU is the first recorded
        const cpuS = summarize((cpu[side] ?? []).slice(1).map((ms) => ms / 1000));
        // a baseline's figure is shown against the goal for comparison; only this build's is judged
        const figure = { name: 'median wall', unit: ' s', goal: { op: '<=' as const, value: run.goalS } };
        console.log(side === 'this build' ? judgeFigure(`${run.label}, ${side}`, r.summary, figure) : formatFigure(`${run.label}, ${side}`, r.summary, figure));
        console.log(`  CPU of the run and its processes: median ${cpuS.median.toFixed(2)} s (${cpuS.min.toFixed(2)}–${cpuS.max.toFixed(2)})`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBench().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
