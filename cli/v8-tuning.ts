import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/*
 * The CLI's settings of V8 for its own process (the library's callers keep theirs): how far the
 * heap grows between full collections, and how soon code is optimized. Each is left alone when
 * the user's flags set it.
 */

/**
 * How much V8 lets its heap grow past what survived the last full collection, in percent, once
 * the heap is large. Left to itself V8 grows it up to fourfold, so a run whose live memory is
 * 200 MB (a merge of 100,000 cases, a property asking for a 50 MB answer thirty times) peaked at
 * 600–800 MB of resident memory, mostly garbage not yet collected. At 20% the same runs peak at
 * 300–460 MB (bench/hostile-memory.ts), for more frequent collections.
 */
export const HEAP_GROWING_PERCENT = 20;

/**
 * The growth while the heap is small. At 20% from the start, an ordinary run, whose live memory
 * climbs to 60–80 MB, went through some twenty full collections (concurrent marking on every
 * core), about 2.5 s of the default run's 21 s of CPU; at 100% it needs a few. Below
 * {@link SMALL_HEAP_BYTES} doubling costs little memory.
 */
export const SMALL_HEAP_GROWING_PERCENT = 100;

/** Used heap past which the growth is {@link HEAP_GROWING_PERCENT} for the rest of the process. */
export const SMALL_HEAP_BYTES = 128 * 1024 * 1024;

/**
 * Bounds the heap's growth for this process (V8 reads the setting each time it sizes the heap
 * after a full collection), unless the user set it, or a heap size, through NODE_OPTIONS or
 * node's own flags. With `smallFirst`, {@link SMALL_HEAP_GROWING_PERCENT} at first and
 * {@link HEAP_GROWING_PERCENT} from the first collection after which more than
 * {@link SMALL_HEAP_BYTES} are in use (a heap can then hold twice that for one cycle at most);
 * else {@link HEAP_GROWING_PERCENT} from the start.
 */
export function boundHeapGrowth(smallFirst = true): HeapGrowth {
  const given = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some((a) => /heap-growing-percent|max-old-space-size|max-heap-size/.test(a));
  if (given) return { percent: () => undefined };
  let percent = smallFirst ? SMALL_HEAP_GROWING_PERCENT : HEAP_GROWING_PERCENT;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  if (!smallFirst) return { percent: () => percent };
  // told of every collection, young ones included, so the switch comes soon after the heap
  // passes the mark, before the full collection that sizes it next; an observer keeps nothing alive
  const watch = new PerformanceObserver(() => {
    if (getHeapStatistics().used_heap_size <= SMALL_HEAP_BYTES) return;
    percent = HEAP_GROWING_PERCENT;
    setFlagsFromString(`--heap-growing-percent=${percent}`);
    watch.disconnect();
  });
  watch.observe({ entryTypes: ['gc'] });
  return { percent: () => percent };
}

/** What {@link boundHeapGrowth} set. */
export interface HeapGrowth {
  /** The growth in force, in percent; undefined when the user's flags size the heap. */
  percent(): number | undefined;
}

/**
 * How much a function must run before V8 considers optimizing it (`--interrupt-budget`, in bytes
 * of bytecode run; Node 20's V8 starts at 66 KB). A run of a few seconds spends much of its CPU
 * optimizing code it will not run long: at 66 KB the background compiler took about 2.5 s of the
 * default run's 21 s of CPU; at 264 KB about 1 s less in all, the hot loops of long runs optimized
 * a little later.
 */
export const OPTIMIZATION_BUDGET_BYTES = 264 * 1024;

/**
 * Sets the budget for this process, unless the user set it through node's flags (NODE_OPTIONS
 * cannot carry it). V8 reads it each time it counts a function's budget afresh, so it holds for
 * what runs after this.
 */
export function slowOptimization(): void {
  if (process.execArgv.some((a) => a.includes('interrupt-budget'))) return;
  setFlagsFromString(`--interrupt-budget=${OPTIMIZATION_BUDGET_BYTES}`);
}

/**
 * The commands whose heap grows as they run cases, a collection at a time, so that the switch
 * to the bound comes in time. `merge` reads whole reports at once: its heap passed the mark
 * inside one synchronous parse, before the switch could run, and peaked 140 MB higher.
 */
const GROWS_AS_IT_RUNS = new Set(['run', 'fuzz']);

/** The CLI's settings of V8, made once at start for `command`: {@link boundHeapGrowth} and {@link slowOptimization}. */
export function tuneV8(command: string | undefined): HeapGrowth {
  slowOptimization();
  return boundHeapGrowth(command !== undefined && GROWS_AS_IT_RUNS.has(command));
}
