import { setFlagsFromString } from 'node:v8';

/**
 * How much V8 lets its heap grow past what survived the last full collection, in percent.
 * Left to itself V8 grows it up to fourfold, so a run whose live memory is 200 MB (a merge of
 * 100,000 cases, a property asking for a 50 MB answer thirty times) peaked at 600–800 MB of
 * resident memory, mostly garbage not yet collected. At 20% the same runs peak at 300–460 MB
 * (bench/hostile-memory.ts), for more frequent collections; docs/performance.md has the cost.
 */
export const HEAP_GROWING_PERCENT = 20;

/**
 * Bounds the heap's growth for this process (V8 reads the setting each time it sizes the heap),
 * unless the user set it, or a heap size, through NODE_OPTIONS or node's own flags.
 */
export function boundHeapGrowth(): void {
  const given = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some((a) => /heap-growing-percent|max-old-space-size|max-heap-size/.test(a));
  if (!given) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
