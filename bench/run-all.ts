import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { goalsTable, judgeValue, judgingFor } from './goals.js';

/**
 * `npm run bench`: every benchmark, each printing ratios measured side by side in one run.
 * Pass names to run only some (`npm run bench -- harness-http`), and `--quick` for smaller
 * work per round (the sizes of {@link QUICK}, unless the environment sets them): the same
 * rounds and figures in a few minutes, for a look rather than a record. At the end, every goal
 * the benchmarks judged, MET or NOT MET, in one table (bench/goals.ts).
 */
const BENCHES = ['cli-start', 'whole-runs', 'harness-http', 'merchant-routes', 'plugin-fuzz', 'plugin-generate', 'events-paging', 'collation-sort', 'hostile-memory', 'har-recording', 'scale', 'plugin-suite', 'affiliate-suite', 'oauth-browser'];

/** The sizes `--quick` gives the benchmarks (each a BENCH_* variable they read). */
const QUICK: Readonly<Record<string, string>> = {
  BENCH_N: '500',
  BENCH_FUZZ_N: '20',
  BENCH_GENERATE_N: '2000',
  BENCH_EVENTS: '20000',
  BENCH_COLLATION_N: '20000',
  BENCH_CASES: '10000',
  BENCH_HAR_MB: '50',
  BENCH_SCALE: '2000,20000',
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.filter((a) => !a.startsWith('--'));
  const unknown = only.filter((n) => !BENCHES.includes(n));
  if (unknown.length) {
    console.error(`no benchmark named ${unknown.join(', ')}; the benchmarks: ${BENCHES.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const quick = args.includes('--quick');
  if (quick) {
    for (const [k, v] of Object.entries(QUICK)) process.env[k] ??= v;
    console.log(`quick: smaller work per round (${Object.entries(QUICK).map(([k]) => `${k}=${process.env[k]}`).join(', ')}); its figures are not comparable with a full run's`);
  }
  const here = dirname(fileURLToPath(import.meta.url));
  for (const name of BENCHES) {
    if (only.length && !only.includes(name)) continue;
    const file = join(here, `${name}.js`);
    console.log(`== ${name}`);
    judgingFor(name);
    if (!existsSync(file)) {
      // a benchmark asked for and not run is in the table, as one that failed is
      console.log(`${name}: not built (missing ${file}): run npm run build first`);
      judgeValue(`${name} did not run`, 'not built', 'a completed run', false);
      process.exitCode = 1;
      continue;
    }
    try {
      const mod = (await import(pathToFileURL(file).href)) as { runBench?: () => Promise<void>; run?: () => Promise<void> };
      const fn = mod.runBench ?? mod.run;
      if (!fn) throw new Error(`${name} exports neither runBench nor run`);
      await fn();
    } catch (e) {
      // one benchmark that fails measures nothing; the others still run, and the table says which failed
      console.error(`${name} failed:`, e);
      judgeValue(`${name} did not complete`, e instanceof Error ? e.message.split('\n')[0] ?? '' : String(e), 'a completed run', false);
      process.exitCode = 1;
    }
  }
  const table = goalsTable();
  if (table) console.log(`== goals${quick ? ' (quick sizes: a look, not a record)' : ''}\n${table}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
