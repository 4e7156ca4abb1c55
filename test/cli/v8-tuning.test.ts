import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../e2e/cli.js';
import { builtSpecgate, declarePeer } from '../helpers/peer.js';
import { HEAP_GROWING_PERCENT, LAST_V8_WITH_BUDGET, OPTIMIZATION_BUDGET_BYTES, SMALL_HEAP_BYTES, SMALL_HEAP_GROWING_PERCENT } from '../../cli/v8-tuning.js';

const built = builtSpecgate('cli/v8-tuning.js');
declarePeer(built);
const tmp = tempDir('specgate-v8-tuning-');
afterAll(() => tmp.remove());
const tuning = pathToFileURL(join(process.cwd(), 'dist/cli/v8-tuning.js')).href;

/** Runs `body` in a Node process of its own (flags and heap untouched by the test's), with its stdout. */
function inProcess(name: string, body: string, flags: string[] = [], env: Record<string, string> = {}): string {
  const script = join(tmp.dir, `${name}.mjs`);
  writeFileSync(script, `import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
const tuning = await import(${JSON.stringify(tuning)});
let full = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++; }).observe({ entryTypes: ['gc'] });
const kept = [];
/** Keeps mb megabytes more, in 256 KB arrays, each made of garbage four times its size. */
async function keep(mb) {
  for (let i = 0; i < mb * 4; i++) {
    for (let g = 0; g < 4; g++) new Array(32 * 1024).fill(g);
    kept.push(new Array(32 * 1024).fill(i));
    if (i % 64 === 0) await new Promise((r) => setImmediate(r));
  }
}
const turn = () => new Promise((r) => setImmediate(r));
${body}
`);
  const r = spawnSync(process.execPath, [...flags, script], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '', ...env } });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

describe.skipIf(built.skip)('the CLI\'s heap growth', () => {
  it('doubles a small heap: a run keeping 120 MB goes through fewer full collections than at 20% from the start', () => {
    const doubling = Number(inProcess('doubling', 'tuning.boundHeapGrowth();\nawait keep(120);\nawait turn();\nprocess.stdout.write(String(full));'));
    const bounded = Number(inProcess('bounded', `setFlagsFromString('--heap-growing-percent=${HEAP_GROWING_PERCENT}');\nawait keep(120);\nawait turn();\nprocess.stdout.write(String(full));`));
    expect(doubling).toBeGreaterThan(0);
    expect(bounded).toBeGreaterThan(doubling);
  });

  it(`bounds growth to ${HEAP_GROWING_PERCENT}% from the first collection after which more than ${SMALL_HEAP_BYTES / 2 ** 20} MB are in use`, () => {
    const said = inProcess('switch', `const growth = tuning.boundHeapGrowth();
const seen = [growth.percent()];
await keep(${SMALL_HEAP_BYTES / 2 ** 20 - 40});
gc();
await turn();
seen.push(growth.percent());
await keep(60);
gc();
await turn();
seen.push(growth.percent());
process.stdout.write(JSON.stringify(seen));`, ['--expose-gc']);
    expect(JSON.parse(said)).toEqual([SMALL_HEAP_GROWING_PERCENT, SMALL_HEAP_GROWING_PERCENT, HEAP_GROWING_PERCENT]);
  });

  it('bounds it from the start for commands other than run and fuzz', () => {
    const said = (...args: string[]): number => Number(inProcess(`command-${args.join('-').replace(/\W/g, '')}`, `process.stdout.write(String(tuning.tuneV8(${JSON.stringify(args)}).percent()));`));
    expect([said('run'), said('fuzz'), said('merge'), said('serve')]).toEqual([SMALL_HEAP_GROWING_PERCENT, SMALL_HEAP_GROWING_PERCENT, HEAP_GROWING_PERCENT, HEAP_GROWING_PERCENT]);
    // an earlier run's report, read in one parse at the start
    expect([said('run', '--shard', '1/2', '--shard-timings', 'r.json'), said('run', '--shard-timings=r.json')]).toEqual([HEAP_GROWING_PERCENT, HEAP_GROWING_PERCENT]);
  });

  it('leaves the heap as the user\'s flags size it', () => {
    const body = 'process.stdout.write(String(tuning.boundHeapGrowth().percent()));';
    expect(inProcess('user-options', body, [], { NODE_OPTIONS: '--max-old-space-size=300' })).toBe('undefined');
    expect(inProcess('user-flags', body, ['--heap-growing-percent=50'])).toBe('undefined');
    // V8 takes underscores for dashes
    expect(inProcess('user-options-underscores', body, [], { NODE_OPTIONS: '--no-warnings --max_old_space_size=300' })).toBe('undefined');
    expect(inProcess('user-flags-underscores', body, ['--heap_growing_percent=50'])).toBe('undefined');
    expect(inProcess('user-initial', body, ['--initial-old-space-size=64'])).toBe('undefined');
    // a young generation's size is not the heap's growth
    expect(inProcess('user-young', body, ['--max-semi-space-size=16'])).toBe(String(SMALL_HEAP_GROWING_PERCENT));
  });
});

describe.skipIf(built.skip)('the CLI\'s optimization budget', () => {
  const body = (v8: string): string => `process.stdout.write(String(tuning.slowOptimization(${JSON.stringify(v8)})));`;
  // this Node's V8 takes the flag (on a later one, node itself refuses it on its command line)
  const hasBudget = Number(process.versions.v8.split('.')[0]) <= LAST_V8_WITH_BUDGET;

  it.runIf(hasBudget)('is set on Node 20\'s V8, and the process says nothing of it', () => {
    // inProcess also checks that nothing was written to stderr (an unknown flag would be)
    expect(inProcess('budget-v8-11', body('11.3.244.8-node.33'))).toBe(String(OPTIMIZATION_BUDGET_BYTES));
  });

  it('is not set on a later V8, which has no such flag', () => {
    expect(inProcess('budget-v8-12', body('12.4.254.21-node.33'))).toBe('undefined');
    expect(inProcess('budget-v8-13', body('13.6.233.10-node.27'))).toBe('undefined');
  });

  it.runIf(hasBudget)('is left as the user\'s flags set it, however spelled', () => {
    expect(inProcess('budget-user', body('11.3.244.8'), ['--interrupt-budget=1000'])).toBe('undefined');
    expect(inProcess('budget-user-underscores', body('11.3.244.8'), ['--interrupt_budget=1000'])).toBe('undefined');
  });
});
