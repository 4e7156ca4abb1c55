import { judgeFigure } from './goals.js';
import { childrenCpuMs, median, summarize } from './rounds.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fromRoot } from '../src/paths.js';

/**
 * `specgate run --suite plugin` against its bundled reference, as a user runs it: the wall time
 * of the whole command, the CPU time of it and every process it started (Linux: the children's
 * times the kernel adds up once they are reaped), and how many Node processes the run started
 * (plugin and compiler runs; the command itself not counted). Each figure is the median of at
 * least {@link MIN_ROUNDS} rounds after one warm-up round, printed with its extremes. The runs
 * use one seed, so every round generates the same inputs and starts the same processes.
 *
 *   npm run build && node dist/bench/plugin-suite.js      (BENCH_ROUNDS=n for more rounds)
 */

const MIN_ROUNDS = 7;
const SEED = '1';

/** One measured run of the suite. */
export interface SuiteRound {
  wallMs: number;
  /** User plus system CPU of the command and its descendants; NaN where it cannot be read. */
  cpuMs: number;
  /** Node processes started by the run; NaN when not counted. */
  nodeProcesses: number;
  exitCode: number | null;
}

/** The whole suite's goal on two cores: its median wall time at most this many seconds. */
const GOAL_S = 4;

/**
 * Runs the suite once. With `countIn`, every Node process of the run appends a line to that
 * file as it starts (NODE_OPTIONS imports a one-line module), which costs each a little: only
 * the warm-up round counts.
 */
function runSuite(work: string, countIn?: string): Promise<SuiteRound> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  if (countIn) {
    const hook = join(work, 'count-start.mjs');
    writeFileSync(hook, `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(countIn)}, 'node\\n');\n`);
    writeFileSync(countIn, '');
    env['NODE_OPTIONS'] = `${env['NODE_OPTIONS'] ?? ''} --import ${JSON.stringify(hook)}`.trim();
  }
  const args = [fromRoot('bin', 'specgate.js'), 'run', '--suite', 'plugin', '--seed', SEED, '--report', `json=${join(work, 'results.json')}`];
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: work, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - start;
      const cpuMs = childrenCpuMs() - cpuBefore;
      // the command's own start is counted too: take it off
      const nodeProcesses = countIn ? readFileSync(countIn, 'utf8').split('\n').filter(Boolean).length - 1 : Number.NaN;
      resolve({ wallMs, cpuMs, nodeProcesses, exitCode: code });
    });
  });
}

function seconds(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'n/a';
}

function spread(xs: readonly number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${seconds(s[0] ?? Number.NaN)}–${seconds(s[s.length - 1] ?? Number.NaN)}`;
}

export async function run(): Promise<void> {
  if (!existsSync(fromRoot('dist', 'reference', 'plugin', 'plugin-main.js'))) throw new Error('the reference plugin is not built: run `npm run build` first');
  const rounds = Math.max(MIN_ROUNDS, Math.floor(Number(process.env['BENCH_ROUNDS'] ?? MIN_ROUNDS)) || MIN_ROUNDS);
  const work = mkdtempSync(join(tmpdir(), 'specgate-bench-plugin-'));
  try {
    const warm = await runSuite(work, join(work, 'starts.txt'));
    if (warm.exitCode !== 0) throw new Error(`the plugin suite did not pass against its reference (exit ${warm.exitCode}): see ${join(work, 'results.json')}`);
    console.log(`  warm-up: ${seconds(warm.wallMs)} wall, ${warm.nodeProcesses} Node processes started`);
    const measured: SuiteRound[] = [];
    for (let r = 0; r < rounds; r++) {
      const x = await runSuite(work);
      if (x.exitCode !== 0) throw new Error(`round ${r + 1}: the plugin suite exited ${x.exitCode}`);
      measured.push(x);
      console.log(`  round ${r + 1}: ${seconds(x.wallMs)} wall, ${seconds(x.cpuMs)} CPU`);
    }
    const wall = measured.map((x) => x.wallMs);
    const cpu = measured.map((x) => x.cpuMs);
    console.log(`plugin suite against its reference: median ${seconds(median(wall))} wall (${spread(wall)}), ${seconds(median(cpu))} CPU (${spread(cpu)}) over ${rounds} rounds; ${warm.nodeProcesses} Node processes started per run`);
    console.log(judgeFigure('plugin suite against its reference (specgate run --suite plugin)', summarize(wall.map((ms) => ms / 1000)), { name: 'median wall', unit: ' s', goal: { op: '<=', value: GOAL_S } }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
