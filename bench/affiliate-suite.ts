import { judgeFigure } from './goals.js';
import { childrenCpuMs, median, summarize } from './rounds.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromRoot } from '../src/paths.js';

/**
 * The affiliate suite against the bundled reference, end to end: `specgate run --suite
 * affiliate` (the platform's cases and the integration's, whose pages headless Chromium
 * renders), timed as a user sees it, process start to exit. Prints the median over at least
 * {@link MIN_ROUNDS} rounds after a warm-up, with the spread; also the CPU time of every
 * process of the run (specgate, the launched integrations, Chromium: what the run cost where
 * the wall time also says what else ran on the machine) and the slowest integration case.
 *
 * `BENCH_AFFILIATE_BASELINE=<path of another checkout's bin/specgate.js>` runs that CLI too,
 * interleaved round by round with this one (the order alternating), so a drift in the machine's
 * load favours neither, and prints both. `BENCH_ROUNDS` asks for more rounds,
 * `BENCH_AFFILIATE_ARGS` adds `run` arguments. Goal: 4 s median
 * wall on a two-core machine. Needs `npm run build` and Chromium (without one the integration
 * cases are skipped, and the figure says less).
 */
export const MIN_ROUNDS = 7;
/** `BENCH_AFFILIATE_ARGS`: more `run` arguments, space-separated (e.g. `--side server`, to see what the platform's cases alone take). */
const EXTRA_ARGS = (process.env['BENCH_AFFILIATE_ARGS'] ?? '').split(' ').filter((a) => a !== '');
const GOAL_MS = 4000;

interface Round {
  ms: number;
  /** CPU time of the run's processes (the CLI and everything it waited for), ms; NaN off Linux. */
  cpuMs: number;
  /** The slowest integration case, ms. */
  integrationMs: number;
  code: number | null;
}


function slowestIntegrationCase(reportFile: string): number {
  if (!existsSync(reportFile)) return Number.NaN;
  let most = 0;
  JSON.stringify(JSON.parse(readFileSync(reportFile, 'utf8')) as unknown, (_k, v: unknown) => {
    const c = v as { id?: unknown; durationMs?: unknown } | null;
    if (c && typeof c === 'object' && typeof c.id === 'string' && c.id.startsWith('integration-') && typeof c.durationMs === 'number') most = Math.max(most, c.durationMs);
    return v;
  });
  return most;
}

function runOnce(bin: string, dir: string): Promise<Round> {
  const report = join(dir, `run-${Math.random().toString(36).slice(2)}.json`);
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, 'run', '--suite', 'affiliate', ...EXTRA_ARGS, '--no-color', '--report', `json=${report}`], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code !== 0) return fail(new Error(`${bin} run --suite affiliate ended with ${code}: ${stderr}`));
      done({ ms, cpuMs: childrenCpuMs() - cpuBefore, integrationMs: slowestIntegrationCase(report), code });
    });
  });
}

const secs = (ms: number): string => (ms / 1000).toFixed(2);

function describe(label: string, rounds: readonly Round[]): string {
  const wall = rounds.map((r) => r.ms);
  return `${label}: median ${secs(median(wall))} s wall (min ${secs(Math.min(...wall))}, max ${secs(Math.max(...wall))}), CPU of all its processes ${secs(median(rounds.map((r) => r.cpuMs)))} s, slowest integration case ${secs(median(rounds.map((r) => r.integrationMs)))} s`;
}

export async function runBench(): Promise<void> {
  const asked = Math.floor(Number(process.env['BENCH_ROUNDS'] ?? MIN_ROUNDS));
  const rounds = Number.isFinite(asked) ? Math.max(MIN_ROUNDS, asked) : MIN_ROUNDS;
  const current = fromRoot('bin', 'specgate.js');
  const baselineBin = process.env['BENCH_AFFILIATE_BASELINE'];
  const sides: Array<{ label: string; bin: string; rounds: Round[] }> = [{ label: 'this build', bin: current, rounds: [] }];
  if (baselineBin) sides.push({ label: `baseline ${baselineBin}`, bin: resolve(baselineBin), rounds: [] });
  const dir = mkdtempSync(join(tmpdir(), 'sg-bench-affiliate-'));
  try {
    // warm-up: the file cache, Chromium's first start
    for (const s of sides) await runOnce(s.bin, dir);
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 ? [...sides].reverse() : sides;
      for (const s of order) s.rounds.push(await runOnce(s.bin, dir));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`affiliate suite (specgate run --suite affiliate${EXTRA_ARGS.length ? ` ${EXTRA_ARGS.join(' ')}` : ''}, bundled reference), ${rounds} rounds:`);
  for (const s of sides) console.log(`  ${describe(s.label, s.rounds)}`);
  const [mine, base] = sides;
  if (mine && base) console.log(`  ratio this/baseline: ${(median(mine.rounds.map((r) => r.ms)) / median(base.rounds.map((r) => r.ms))).toFixed(2)} (wall), ${(median(mine.rounds.map((r) => r.cpuMs)) / median(base.rounds.map((r) => r.cpuMs))).toFixed(2)} (CPU)`);
  console.log(judgeFigure(`affiliate suite against its reference (specgate run --suite affiliate${EXTRA_ARGS.length ? ` ${EXTRA_ARGS.join(' ')}` : ''}), this build`, summarize((mine?.rounds ?? []).map((r) => r.ms / 1000)), { name: 'median wall', unit: ' s', goal: { op: '<=', value: GOAL_MS / 1000 } }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBench().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
