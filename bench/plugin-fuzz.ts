import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createExecRunner } from '../src/targets/exec-runner.js';
import type { ExecRequest, ExecRunner } from '../src/targets/types.js';
import { fuzzPlugin } from '../suites/plugin/fuzz/fuzz-plugin.js';

/**
 * Fuzz throughput: `specgate fuzz plugin` against the reference plugin (generate, encode, spawn,
 * judge with the reference model), side by side with a bare loop that spawns the same plugin
 * and pipes it the very same request bytes at the same concurrency. Goal: ratio >= 0.85.
 * Then the fuzzer's scaling from 1 process to one per core.
 */
const N = Number(process.env['BENCH_FUZZ_N'] ?? 200);
const ROUNDS = 5;
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

async function timeFuzzer(concurrency: number, sent: Uint8Array[] = []): Promise<number> {
  const outDir = mkdtempSync(join(tmpdir(), 'specgate-bench-fuzz-'));
  try {
    const t = performance.now();
    const result = await fuzzPlugin({
      target: { vars: {}, exec: { command: process.execPath, args: [PLUGIN] }, runner: recordingRunner(createExecRunner(), sent) },
      runs: N,
      seed: SEED,
      concurrency,
      outDir,
      commandLine: 'specgate fuzz plugin',
      signal: new AbortController().signal,
      log: () => undefined,
    });
    const ms = performance.now() - t;
    if (!result.ok || result.runs !== N) throw new Error(`fuzzer: expected ${N} clean runs against the reference plugin, got: ${result.message}`);
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

export async function run(): Promise<void> {
  const cores = availableParallelism();
  const concurrency = cores;
  const sent: Uint8Array[] = [];
  // Warm-up and capture of the exact request bytes the fuzzer sends for this seed.
  await timeFuzzer(concurrency, sent);
  // Requests the fuzzer has already judged (the same bytes again) are not run twice, so both
  // sides start the same processes: one per distinct request.
  console.log(`  ${N} requests from seed ${SEED}, ${sent.length} distinct (one plugin process each)`);
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which side goes first, so a drift in machine load does not favour one side.
    let bare: number;
    let fuzz: number;
    if (r % 2 === 0) {
      bare = await timeBare(sent, concurrency);
      fuzz = await timeFuzzer(concurrency);
    } else {
      fuzz = await timeFuzzer(concurrency);
      bare = await timeBare(sent, concurrency);
    }
    const ratio = bare / fuzz;
    ratios.push(ratio);
    console.log(
      `  round ${r + 1}: bare loop ${((N * 1000) / bare).toFixed(1)} req/s, specgate fuzz ${((N * 1000) / fuzz).toFixed(1)} req/s, throughput ratio ${ratio.toFixed(2)}`,
    );
  }
  const m = median(ratios);
  console.log(`fuzz throughput, ${N} requests to the reference plugin at concurrency ${concurrency}: median ratio specgate/bare = ${m.toFixed(2)} (goal >= 0.85) ${m >= 0.85 ? 'MET' : 'NOT MET'}`);

  const levels = [...new Set([1, 2, 4, 8, cores].filter((c) => c <= cores))].sort((a, b) => a - b);
  let base = Number.NaN;
  for (const c of levels) {
    const rate = (N * 1000) / (await timeFuzzer(c));
    if (c === 1) base = rate;
    console.log(`  concurrency ${c}: ${rate.toFixed(1)} req/s (x${(rate / base).toFixed(2)} of concurrency 1)`);
  }
}
