import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { buildDescriptorSet } from '../generators/plugin/build-descriptor-set.js';
import { setPlan } from '../generators/plugin/descriptor-plan.js';
import { encodeMessage } from '../reference/plugin/codec.js';
import { TypeNames } from '../reference/plugin/schema.js';
import { formatFigure, roundCount, summarize } from './rounds.js';

/**
 * Generating and encoding descriptor sets: 10,000 sets from one seed, timed in three parts
 * measured side by side — drawing the structural plans, building descriptor sets from them,
 * and encoding them to FileDescriptorSet bytes — with the rate of each and the share of the
 * plan-to-descriptor mapping in generation. Nothing to compare against: each figure is the median,
 * with its spread, of rounds that each do the whole work again (bench/rounds.ts).
 */
const N = Number(process.env['BENCH_GENERATE_N'] ?? 10_000);
const SEED = 77;

/** One round: the three parts timed (ms), with the size of what was encoded. */
function round(): { planMs: number; buildMs: number; encodeMs: number; bytes: number; files: number } {
  let t = performance.now();
  const plans = fc.sample(setPlan(), { seed: SEED, numRuns: N });
  const planMs = performance.now() - t;

  t = performance.now();
  const sets = plans.map(buildDescriptorSet);
  const buildMs = performance.now() - t;

  t = performance.now();
  let bytes = 0;
  let files = 0;
  for (const set of sets) {
    bytes += encodeMessage(TypeNames.fileDescriptorSet, set).length;
    files += set.file.length;
  }
  const encodeMs = performance.now() - t;
  return { planMs, buildMs, encodeMs, bytes, files };
}

export async function run(): Promise<void> {
  // Warm-up (JIT, protobufjs type setup): one whole round, not recorded.
  round();

  const rounds = Array.from({ length: roundCount() }, (_, r) => {
    const x = round();
    console.log(`  round ${r + 1}: draw ${x.planMs.toFixed(0)} ms, build ${x.buildMs.toFixed(0)} ms, encode ${x.encodeMs.toFixed(0)} ms`);
    return x;
  });
  const { bytes, files } = rounds[0] ?? { bytes: Number.NaN, files: Number.NaN };
  const rate = (pick: (x: (typeof rounds)[number]) => number) => summarize(rounds.map((x) => (N * 1000) / pick(x)));
  const opts = { name: 'median', digits: 0, unit: ' sets/s' };
  console.log(formatFigure(`  draw plans`, rate((x) => x.planMs), opts));
  console.log(formatFigure(`  build sets`, rate((x) => x.buildMs), opts));
  console.log(formatFigure(`  encode sets (${(bytes / 1024 / 1024).toFixed(1)} MiB, ${(files / N).toFixed(2)} files and ${(bytes / N).toFixed(0)} bytes per set)`, rate((x) => x.encodeMs), opts));
  console.log(formatFigure(`generate + encode ${N} descriptor sets`, rate((x) => x.planMs + x.buildMs + x.encodeMs), opts));
  console.log(formatFigure(`generate ${N} descriptor sets`, summarize(rounds.map((x) => x.buildMs / (x.planMs + x.buildMs))), { name: 'median mapping share of generation' }));
}
