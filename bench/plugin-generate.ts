import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { buildDescriptorSet } from '../generators/plugin/build-descriptor-set.js';
import { setPlan } from '../generators/plugin/descriptor-plan.js';
import { encodeMessage } from '../reference/plugin/codec.js';
import { TypeNames } from '../reference/plugin/schema.js';

/**
 * Generating and encoding descriptor sets: 10,000 sets from one seed, timed in three parts
 * measured side by side — drawing the structural plans, building descriptor sets from them,
 * and encoding them to FileDescriptorSet bytes — with the rate of each and the share of the
 * plan-to-descriptor mapping in generation.
 */
const N = Number(process.env['BENCH_GENERATE_N'] ?? 10_000);
const SEED = 77;

export async function run(): Promise<void> {
  // Warm-up (JIT, protobufjs type setup).
  for (const plan of fc.sample(setPlan(), { seed: SEED + 1, numRuns: 200 })) encodeMessage(TypeNames.fileDescriptorSet, buildDescriptorSet(plan));

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

  const rate = (ms: number): string => `${((N * 1000) / ms).toFixed(0)} sets/s`;
  const total = planMs + buildMs + encodeMs;
  console.log(`  draw plans:      ${planMs.toFixed(0)} ms (${rate(planMs)})`);
  console.log(`  build sets:      ${buildMs.toFixed(0)} ms (${rate(buildMs)})`);
  console.log(`  encode sets:     ${encodeMs.toFixed(0)} ms (${rate(encodeMs)}, ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${(files / N).toFixed(2)} files and ${(bytes / N).toFixed(0)} bytes per set)`);
  console.log(`generate + encode ${N} descriptor sets: ${total.toFixed(0)} ms, ${rate(total)}; mapping share of generation = ${(buildMs / (planMs + buildMs)).toFixed(2)}`);
}
