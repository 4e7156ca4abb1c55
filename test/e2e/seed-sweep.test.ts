/**
 * Every suite's default run against its bundled reference, over many seeds: a conforming target
 * never fails, whatever the seed. A reference that fails on an unlucky seed is a harness bug (a
 * generated identifier that collides with a fixture, cases that race over one resource).
 *
 * Lean enough for CI: the first seed runs every case of every suite. Then every seed runs the
 * suites whose whole run is quick and whose cases share a target's state (the collation store;
 * the merchant service has a sweep of its own over more seeds), and of the others the cases that drew on the seed in the first run (a
 * case that never asked for its seed judges the same inputs on any seed): all seeds for the
 * quick ones, a few for those that launch a client application or a browser (seconds each).
 * Property runs are lowered to a few per case: the sweep looks for seeds that break a conforming
 * target, which show on the first generated values as often as on the hundredth.
 */
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine/model.js';
import { run } from '../../src/engine/run.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { builtinSuites } from '../../suites/index.js';

/**
 * Ten seeds (twenty before): this was CI's second-longest test, and CI's time goes first to
 * planted faults and their controls. Fewer seeds find a rare unlucky seed less often; any seed a
 * user meets replays with `specgate run --seed N`.
 */
const SEEDS = 10;
/** A fixed first seed and 9 more spread over the 31-bit range (printed on a failure, to replay). */
const seeds = Array.from({ length: SEEDS }, (_, i) => (i === 0 ? 1 : (i * 0x9e3779b1) >>> 1));
/** Suites swept whole on every seed: quick, and their cases share one target's state. */
const WHOLE = new Set(['collation']);
/** Swept by a file of its own over more seeds (test/suites/merchant/seed-sweep.test.ts): here only on the first. */
const OWN_SWEEP = new Set(['merchant']);
/** Seeds for the seeded cases that took longer than SLOW_MS on the first (client processes, a browser). */
const SLOW_SEEDS = 3;
const SLOW_MS = 1500;
const RUNS = 3;

/** What did not pass on a conforming target: failed requirements and errored cases, by suite. */
function wrong(r: RunResult): string[] {
  return r.suites.flatMap((s) => [
    ...s.requirements.filter((v) => v.status === 'failed').map((v) => `${s.name} ${v.id} failed: ${v.failures[0]?.message ?? ''}`),
    // a conforming reference blocks nothing: a precondition of its own did not hold
    ...s.requirements.filter((v) => v.status === 'blocked').map((v) => `${s.name} ${v.id} blocked: ${v.reason ?? ''}`),
    ...s.cases.filter((c) => c.outcome === 'errored').map((c) => `${s.name}/${c.id} errored: ${c.reason ?? ''}`),
  ]);
}

describe('every suite against its reference over many seeds', () => {
  it(`fails nothing on any of ${SEEDS} seeds`, async () => {
    const modules: SuiteModule[] = await builtinSuites();
    const names = modules.map((m) => m.name);
    const first = await run({ modules, suites: names, targets: {}, seed: seeds[0] as number, runs: RUNS });
    const problems = wrong(first).map((p) => `seed ${seeds[0]}: ${p}`);
    const seeded = first.suites.filter((s) => !WHOLE.has(s.name) && !OWN_SWEEP.has(s.name)).flatMap((s) => s.cases.filter((c) => c.seeded).map((c) => ({ id: `${s.name}/${c.id}`, slow: c.durationMs > SLOW_MS })));
    const quick = seeded.filter((c) => !c.slow).map((c) => c.id);
    const slow = seeded.filter((c) => c.slow).map((c) => c.id);
    // the sweep must sweep something beyond the whole suites: generated-input cases draw on the seed
    expect(quick.length).toBeGreaterThan(20);
    const others = names.filter((n) => !WHOLE.has(n) && !OWN_SWEEP.has(n));
    for (const [i, seed] of seeds.slice(1).entries()) {
      const cases = i < SLOW_SEEDS - 1 ? [...quick, ...slow] : quick;
      const whole = await run({ modules, suites: [...WHOLE], targets: {}, seed, runs: RUNS });
      const rest = await run({ modules, suites: others, targets: {}, seed, runs: RUNS, cases });
      problems.push(...[...wrong(whole), ...wrong(rest)].map((p) => `seed ${seed}: ${p} (replay: specgate run --seed ${seed})`));
    }
    expect(problems).toEqual([]);
  }, 900_000);
});
