import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fromRoot } from '../src/paths.js';
import { BIN, writePreload } from './cli-runs.js';
import { judgeFigure } from './goals.js';
import { formatFigure, interleaveAll, summarize, type SideRounds } from './rounds.js';

/**
 * How long the built CLI takes to start and answer, per command line, against a bare
 * `node -e 0` (the floor: what starting Node.js costs on this machine), all interleaved round
 * after round in a rotating order. Printed per command: the median wall time with its spread,
 * judged against the goal, and the median of what it took over the floor in the same round;
 * and the CPU time of the process (user and system), which other work on a shared machine
 * stretches less than wall time. The suite files are loaded warm (their parse cache filled by
 * the warm-up round), as on any second run.
 */
const GOAL_MS = 150;

/** The command lines timed: name and arguments of `node bin/specgate.js`. */
export const COMMANDS: readonly (readonly [string, readonly string[]])[] = [
  ['--version', ['--version']],
  ['--help', ['--help']],
  ['list --suite plugin', ['list', '--suite', 'plugin']],
  ['list', ['list']],
  ['validate suites/plugin/requirements.yaml', ['validate', fromRoot('suites', 'plugin', 'requirements.yaml')]],
];

/** Wall and CPU time (ms) of one `node <args>`, which must exit 0. */
function timed(dir: string, preload: string, args: readonly string[]): { wall: number; cpu: number } {
  const peakFile = join(dir, 'usage.txt');
  rmSync(peakFile, { force: true });
  const start = performance.now();
  const r = spawnSync(process.execPath, args, {
    cwd: fromRoot(),
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', SG_PEAK_FILE: peakFile, NODE_OPTIONS: `--require ${preload}` },
  });
  const wall = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')}: exit ${r.status}: ${String(r.stderr).trim().split('\n').slice(-3).join(' | ')}`);
  const cpuUs = Number(readFileSync(peakFile, 'utf8').split(' ')[1]);
  return { wall, cpu: cpuUs / 1000 };
}

export async function runBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-bench-start-'));
  try {
    const preload = writePreload(dir);
    const cpu = new Map<string, number[]>();
    const side = (name: string, args: readonly string[]) => (): number => {
      const t = timed(dir, preload, args);
      cpu.set(name, [...(cpu.get(name) ?? []), t.cpu]);
      return t.wall;
    };
    const sides: Record<string, () => number> = { 'node -e 0': side('node -e 0', ['-e', '0']) };
    for (const [name, args] of COMMANDS) sides[name] = side(name, [BIN, ...args]);
    const result = await interleaveAll(sides, {
      onRound: (r, v) => console.log(`  round ${r}: ${Object.entries(v).map(([n, ms]) => `${n} ${ms.toFixed(0)}`).join(', ')} ms`),
    });
    // the warm-up round's CPU is not a round
    const cpuOf = (name: string): number[] => (cpu.get(name) ?? []).slice(-(result[name]?.values.length ?? 0));
    const floor = result['node -e 0'] as SideRounds;
    const ms = { name: 'median', digits: 0, unit: ' ms' };
    console.log(formatFigure('  floor: node -e 0, wall', floor.summary, ms));
    console.log(formatFigure('  floor: node -e 0, CPU', summarize(cpuOf('node -e 0')), ms));
    for (const [name] of COMMANDS) {
      const wall = result[name] as SideRounds;
      console.log(judgeFigure(`CLI start: specgate ${name}, wall`, wall.summary, { ...ms, goal: { op: '<=', value: GOAL_MS } }));
      console.log(formatFigure(`  over the floor, wall`, summarize(wall.values.map((x, i) => x - (floor.values[i] as number))), ms));
      console.log(formatFigure(`  CPU`, summarize(cpuOf(name)), ms));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
