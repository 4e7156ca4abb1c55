import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createExecRunner } from '../src/targets/exec-runner.js';
import type { ExecRequest, ExecRunner } from '../src/targets/types.js';
import { fuzzPlugin } from '../suites/plugin/fuzz/fuzz-plugin.js';
import { judgeFigure } from './goals.js';
import { formatFigure, interleave, roundHead } from './rounds.js';

/**
 * Fuzz throughput: `specgate fuzz plugin` against the reference plugin (generate, encode, spawn,
 * judge with the reference model), side by side with a bare loop that spawns the same plugin
 * and pipes it the very same request bytes at the same concurrency, in interleaved rounds
 * (bench/rounds.ts). Goal: median ratio >= 0.85. Then the fuzzer's speed-up from 1 process to one
 * per core, in interleaved rounds too, of SCALING_N runs each.
 *
 * A run starts about three plugin processes (126 for 40 runs), so a round of 200 runs a side is
 * minutes long on a loaded 2-core machine (about a minute per 40 runs a side there): with seven
 * rounds, N is 100 (200 before), and SCALING_N half of N, whose slow side runs one process at a
 * time.
 */
const N = Number(process.env['BENCH_FUZZ_N'] ?? 100);
const SCALING_N = Number(process.env['BENCH_FUZZ_SCALING_N'] ?? Math.ceil(N / 2));
const SEED = 4242;

const here = dirname(fileURLToPath(import.meta.url));
const PLUGIN = join(here, '..', 'reference', 'plugin', 'plugin-main.js');

/** An ExecRunner that keeps every stdin it passes on, so the bare loop can send the same bytes. */
function recordingRunner(inner: ExecRunner, sent: Uint8Array[]): ExecRunner {
  return {
    run(req: ExecRequest) {
      if (req.stdin) sent.push(req.stdin);
      return inner.run(req);
    },
  };
}

async function timeFuzzer(concurrency: number, sent: Uint8Array[] = [], runs = N): Promise<number> {
  const outDir = mkdtempSync(join(tmpdir(), 'specgate-bench-fuzz-'));
  try {
    const t = performance.now();
    const result = await fuzzPlugin({
      target: { vars: {}, exec: { command: process.execPath, args: [PLUGIN] }, runner: recordingRunner(createExecRunner(), sent) },
      runs,
      seed: SEED,
      concurrency,
      outDir,
      commandLine: 'specgate fuzz plugin',
      signal: new AbortController().signal,
      log: () => undefined,
    });
    const ms = performance.now() - t;
    if (!result.ok || result.runs !== runs) throw new Error(`fuzzer: expected ${runs} clean runs against the reference plugin, got: ${result.message}`);
    return ms;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function runOnce(bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    // Its own process group, as the exec runner starts plugins: the OS cost of a spawn is then
    // the same on both sides and the ratio measures the harness alone.
    const child = spawn(process.execPath, [PLUGIN], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    // Collect the answer as the fuzzer's runner does, so both sides read the same bytes.
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`plugin exited ${String(code)}`))));
    child.stdin.end(bytes);
  });
}

async function timeBare(requests: readonly Uint8Array[], concurrency: number): Promise<number> {
  const t = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < requests.length; i = next++) {
      const bytes = requests[i];
      if (bytes) await runOnce(bytes);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return performance.now() - t;
}

export async function run(): Promise<void> {
  const cores = availableParallelism();
  const concurrency = cores;
  const sent: Uint8Array[] = [];
  // Warm-up of the fuzzer and capture of the exact request bytes it sends for this seed; then a warm-up of the bare loop.
  await timeFuzzer(concurrency, sent);
  // Requests the fuzzer has already judged (the same bytes again) are not run twice, so both
  // sides start the same processes: one per distinct request.
  console.log(`  ${N} requests from seed ${SEED}, ${sent.length} distinct (one plugin process each)`);
  await timeBare(sent, concurrency);
  const rate = (runs: number, ms: number): string => `${((runs * 1000) / ms).toFixed(1)} req/s`;
  const result = await interleave(
    () => timeBare(sent, concurrency),
    () => timeFuzzer(concurrency),
    {
      warmup: 0,
      // throughput ratio specgate/bare = bare time / specgate time
      ratio: (bare, fuzz) => bare / fuzz,
      onRound: (r) => console.log(`  ${roundHead(r)}: bare loop ${rate(N, r.bare)}, specgate fuzz ${rate(N, r.specgate)}, throughput ratio ${r.ratio.toFixed(2)}`),
    },
  );
  console.log(
    judgeFigure(`fuzz throughput, ${N} requests to the reference plugin at concurrency ${concurrency}`, result.ratio, { name: 'median throughput ratio specgate/bare', goal: { op: '>=', value: 0.85 } }),
  );

  if (cores < 2) return;
  // Speed-up: concurrency 1 in the place of the bare side, one per core in specgate's.
  const scaling = await interleave(
    () => timeFuzzer(1, [], SCALING_N),
    () => timeFuzzer(cores, [], SCALING_N),
    {
      warmup: 0,
      ratio: (one, all) => one / all,
      onRound: (r) =>
        console.log(`  scaling ${roundHead(r, ['concurrency 1', `concurrency ${cores}`])}: concurrency 1 ${rate(SCALING_N, r.bare)}, concurrency ${cores} ${rate(SCALING_N, r.specgate)}, speed-up x${r.ratio.toFixed(2)}`),
    },
  );
  console.log(formatFigure(`fuzz scaling, ${SCALING_N} requests, concurrency 1 to ${cores}`, scaling.ratio, { name: 'median speed-up' }));
}
