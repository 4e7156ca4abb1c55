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

/** The V8 flags the user gave node, on its command line or in NODE_OPTIONS, spelled with dashes (V8 takes `_` alike). */
function userV8Flags(): string[] {
  const words = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)];
  return words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0]!.replace(/_/g, '-'));
}

/** Flags by which the user sizes the heap or its growth; when one is given the CLI leaves the heap alone. */
const HEAP_FLAGS = new Set(['--heap-growing-percent', '--max-old-space-size', '--max-heap-size', '--initial-old-space-size', '--initial-heap-size']);

/**
 * Bounds the heap's growth for this process (V8 reads the setting each time it sizes the heap
 * after a full collection), unless the user sized the heap or its growth through NODE_OPTIONS or
 * node's own flags ({@link HEAP_FLAGS}; the young generation's size is another matter). With
 * `smallFirst`, {@link SMALL_HEAP_GROWING_PERCENT} at first and {@link HEAP_GROWING_PERCENT}
 * from the first collection, young or full, after which more than {@link SMALL_HEAP_BYTES} of
 * the main thread's heap are in use: live objects and garbage not yet collected, so a run whose
 * live memory stays near half the mark may pass it too. The heap can then hold twice the mark for
 * one cycle at most. Else {@link HEAP_GROWING_PERCENT} from the start. The setting is the
 * process's, so worker threads (a reference's, the exec worker) follow it, switched by the main
 * thread's heap alone.
 */
export function boundHeapGrowth(smallFirst = true): HeapGrowth {
  if (userV8Flags().some((f) => HEAP_FLAGS.has(f))) return { percent: () => undefined };
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
 * The newest V8 with `--interrupt-budget` (Node 20's). Later ones (Node 22, 24) decide by call
 * counts and have no such flag: setting it there would only print "unrecognized flag" on every
 * command, so nothing is set.
 */
export const LAST_V8_WITH_BUDGET = 11;

/**
 * Sets the budget for this process, unless the user set it through node's flags (NODE_OPTIONS
 * cannot carry it) or this V8 (`v8Version`, `process.versions.v8`) has no such flag. V8 reads it
 * each time it counts a function's budget afresh, so it holds for what runs after this. Returns
 * the budget set, or undefined.
 */
export function slowOptimization(v8Version = process.versions.v8): number | undefined {
  if (Number(v8Version.split('.')[0]) > LAST_V8_WITH_BUDGET) return undefined;
  if (userV8Flags().includes('--interrupt-budget')) return undefined;
  setFlagsFromString(`--interrupt-budget=${OPTIMIZATION_BUDGET_BYTES}`);
  return OPTIMIZATION_BUDGET_BYTES;
}

/**
 * The commands whose heap grows as they run cases, a collection at a time, so that the switch
 * to the bound comes in time. `merge` reads whole reports at once: its heap passed the mark
 * inside one synchronous parse, before the switch could run, and peaked 140 MB higher; so does
 * `run --shard-timings` (an earlier run's JSON report), which is bounded from the start too.
 */
const GROWS_AS_IT_RUNS = new Set(['run', 'fuzz']);

/** The CLI's settings of V8, made once at start for the command line `args` (after node and the script): {@link boundHeapGrowth} and {@link slowOptimization}. */
export function tuneV8(args: readonly string[]): HeapGrowth {
  slowOptimization();
  const [command] = args;
  const readsReport = args.some((a) => a === '--shard-timings' || a.startsWith('--shard-timings='));
  return boundHeapGrowth(command !== undefined && GROWS_AS_IT_RUNS.has(command) && !readsReport);
}
