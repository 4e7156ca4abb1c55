/**
 * Live suites of one run side by side (src/engine/run.ts): they overlap, yet every report and
 * the console tell one suite after another in the run's order; the run-wide case budget holds;
 * an interruption records what ran in every suite; a suite whose target cannot start faults
 * alone; a case's seed does not depend on what runs beside it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defineCheck } from '../../src/engine/checks/contract.js';
import type { EngineEvent } from '../../src/engine/events.js';
import type { SuiteResult } from '../../src/engine/model.js';
import { DEFAULT_SUITES_AT_ONCE, run } from '../../src/engine/run.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { createConsoleReporter } from '../../src/reporting/console.js';

/** What one case of a test suite did: when it ran, and the seed it was given. */
interface Visit {
  suite: string;
  caseId: string;
  seed: number;
  from: number;
  to: number;
}

/** A case of a test suite: how long it naps, and whether it runs alone (exclusive). */
interface NapCase {
  ms: number;
  alone?: boolean;
}

const root = mkdtempSync(join(tmpdir(), 'specgate-side-by-side-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A suite named `name` whose cases nap (until the case is stopped), each judging a requirement
 * of its own, and record their visits in `visits`; its reference starts after `startMs`, or
 * fails to start when `startMs` is 'fails'.
 */
function napSuite(name: string, cases: NapCase[], visits: Visit[], startMs: number | 'fails' = 0): SuiteModule {
  const dir = join(root, name);
  mkdirSync(join(dir, 'cases'), { recursive: true });
  const up = name.toUpperCase();
  writeFileSync(join(dir, 'requirements.yaml'), cases.map((_, i) => `- { id: ${up}-${i}, level: MUST, source: "x.txt#A", text: naps }\n`).join(''));
  const yaml = cases.map((c, i) => [`- id: nap-${i}`, `  requirements: [${up}-${i}]`, ...(c.alone ? ['  tags: [exclusive]'] : []), '  steps:', `    - check: ${name}.nap`, `      with: { ms: ${c.ms} }`, ''].join('\n'));
  writeFileSync(join(dir, 'cases', 'naps.yaml'), yaml.join(''));
  return {
    name,
    dir,
    checks: {
      nap: defineCheck<{ ms: number }>({
        description: 'naps, then passes',
        args: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
        judges: 'case',
        async run(ctx, args) {
          const from = performance.now();
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, args.ms);
            ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason as Error)), { once: true });
          });
          visits.push({ suite: name, caseId: ctx.caseId, seed: ctx.seed, from, to: performance.now() });
        },
      }),
    },
    reference: {
      start: async () => {
        if (startMs === 'fails') throw new Error('the reference of this suite cannot start');
        await new Promise((r) => setTimeout(r, startMs));
        return { description: `${name} reference`, vars: {}, stop: async () => undefined };
      },
    },
  };
}

/** The suite each event belongs to, in the order the sinks saw them (run-level events left out). */
function suiteOrder(events: EngineEvent[]): string[] {
  return events.flatMap((e) => ('suite' in e && typeof e.suite === 'string' ? [e.suite] : []));
}

/** The names in `order` with repeats folded: one entry per uninterrupted stretch. */
function stretches(order: string[]): string[] {
  return order.filter((s, i) => s !== order[i - 1]);
}

/** Most cases of `visits` in flight at one moment. */
function mostAtOnce(visits: Visit[]): number {
  const edges = visits.flatMap((v) => [
    { t: v.from, d: 1 },
    { t: v.to, d: -1 },
  ]);
  edges.sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (now += e.d));
  return most;
}

const outcomes = (s: SuiteResult | undefined): string[] => (s?.cases ?? []).map((c) => `${c.id}:${c.outcome}${c.reason ? `:${c.reason}` : ''}`);

describe('live suites side by side', () => {
  it('overlap, keep the run order in results, events and console, and share the case budget', async () => {
    const visits: Visit[] = [];
    // the first suite's long exclusive tail leaves room the second suite fills
    const first = napSuite('first', [{ ms: 30 }, { ms: 30 }, { ms: 400, alone: true }], visits);
    const second = napSuite('second', [{ ms: 60 }, { ms: 60 }, { ms: 60 }, { ms: 60 }], visits);
    const events: EngineEvent[] = [];
    const stream = new PassThrough();
    let printed = '';
    stream.on('data', (d: Buffer) => (printed += d.toString('utf8')));
    const reporter = createConsoleReporter({ stream, verbose: true });
    const result = await run({ modules: [first, second], suites: ['first', 'second'], targets: {}, seed: 7, concurrency: 3, sinks: [(e) => events.push(e), (e) => reporter.onEvent(e)] });
    await reporter.finish();

    expect(result.suites.map((s) => s.name)).toEqual(['first', 'second']);
    expect(result.summary.exitCode).toBe(0);
    // the second suite ran while the first one's exclusive case did
    const tail = visits.find((v) => v.suite === 'first' && v.caseId === 'nap-2') as Visit;
    expect(visits.filter((v) => v.suite === 'second').every((v) => v.from < tail.to)).toBe(true);
    expect(mostAtOnce(visits)).toBeLessThanOrEqual(3);
    // yet every sink saw the first suite whole, then the second whole
    expect(stretches(suiteOrder(events))).toEqual(['first', 'second']);
    const lines = printed.split('\n').filter((l) => /(first|second)/.test(l) && !l.startsWith('Summary'));
    const firstLines = lines.flatMap((l, i) => (/\bfirst\b/.test(l) ? [i] : []));
    const secondLines = lines.flatMap((l, i) => (/\bsecond\b/.test(l) ? [i] : []));
    // the case lines of each suite come together, the header first (the summary names both again, later)
    expect(lines[0]).toContain('first → first reference');
    expect(lines.findIndex((l) => l.includes('second → second reference'))).toBe(4);
    expect(firstLines.slice(0, 4)).toEqual([0, 1, 2, 3]);
    expect(secondLines.slice(0, 5)).toEqual([4, 5, 6, 7, 8]);
  });

  it('give each case the seed it gets with its suite alone', async () => {
    const together: Visit[] = [];
    await run({ modules: [napSuite('a', [{ ms: 5 }, { ms: 5 }], together), napSuite('b', [{ ms: 5 }], together)], suites: ['a', 'b'], targets: {}, seed: 3 });
    const alone: Visit[] = [];
    await run({ modules: [napSuite('a', [{ ms: 5 }, { ms: 5 }], alone)], suites: ['a'], targets: {}, seed: 3 });
    const seeds = (vs: Visit[]): Record<string, number> => Object.fromEntries(vs.filter((v) => v.suite === 'a').map((v) => [v.caseId, v.seed]));
    expect(seeds(together)).toEqual(seeds(alone));
  });

  it('when interrupted, record what ran in both suites in flight, and the suite not reached as interrupted', async () => {
    const visits: Visit[] = [];
    // each suite: one quick case that passes before the interruption, one that naps through it;
    // the second suite's third case waits for one of the run's two slots when the run stops
    const one = napSuite('one', [{ ms: 5 }, { ms: 10_000 }], visits);
    const two = napSuite('two', [{ ms: 5 }, { ms: 10_000 }, { ms: 5 }], visits);
    const three = napSuite('three', [{ ms: 5 }], visits);
    const ac = new AbortController();
    const events: EngineEvent[] = [];
    const running = run({ modules: [one, two, three], suites: ['one', 'two', 'three'], targets: {}, seed: 1, concurrency: 2, suitesAtOnce: 2, signal: ac.signal, sinks: [(e) => events.push(e)] });
    const until = Date.now() + 5000;
    while (visits.filter((v) => v.caseId === 'nap-0').length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    ac.abort({ signal: 'SIGTERM' });
    const result = await running;
    expect(result.interrupted).toEqual({ signal: 'SIGTERM' });
    expect(result.suites.map((s) => s.name)).toEqual(['one', 'two', 'three']);
    expect(outcomes(result.suites[0])).toEqual(['nap-0:passed', 'nap-1:skipped:interrupted while running']);
    expect(outcomes(result.suites[1])).toEqual(['nap-0:passed', 'nap-1:skipped:interrupted while running', 'nap-2:skipped:interrupted']);
    expect(outcomes(result.suites[2])).toEqual(['nap-0:skipped:interrupted']);
    expect(stretches(suiteOrder(events))).toEqual(['one', 'two', 'three']);
  });

  it('fault only the suite whose target cannot be prepared, while the other runs', async () => {
    const visits: Visit[] = [];
    const slow = napSuite('slow', [{ ms: 150 }, { ms: 150 }], visits);
    const broken = napSuite('broken', [{ ms: 5 }], visits, 'fails');
    const after = napSuite('after', [{ ms: 5 }], visits, 20);
    const events: EngineEvent[] = [];
    const result = await run({ modules: [slow, broken, after], suites: ['slow', 'broken', 'after'], targets: {}, seed: 1, suitesAtOnce: 2, sinks: [(e) => events.push(e)] });
    expect(result.suites.map((s) => s.name)).toEqual(['slow', 'broken', 'after']);
    expect(outcomes(result.suites[0])).toEqual(['nap-0:passed', 'nap-1:passed']);
    expect(result.suites[1]?.error?.message).toContain('the reference of this suite cannot start');
    expect(outcomes(result.suites[1])).toEqual([`nap-0:errored:target not started: ${result.suites[1]?.error?.message}`]);
    expect(outcomes(result.suites[2])).toEqual(['nap-0:passed']);
    // the third suite took the broken one's place while the first still ran
    const slowEnd = Math.max(...visits.filter((v) => v.suite === 'slow').map((v) => v.to));
    expect(visits.find((v) => v.suite === 'after')?.from).toBeLessThan(slowEnd);
    expect(stretches(suiteOrder(events))).toEqual(['slow', 'broken', 'after']);
    expect(result.summary.exitCode).not.toBe(0);
  });

  it('run a suite whose target has a clock hook alone: its clock may be the one other suites of the service see', async () => {
    const visits: Visit[] = [];
    const hooked = napSuite('hooked', [{ ms: 100 }], visits);
    const b = napSuite('b', [{ ms: 100 }], visits);
    const c = napSuite('c', [{ ms: 100 }], visits);
    // never called: no case of these suites lets time pass
    const section = { vars: {}, clock: { advance: { method: 'POST', url: 'http://127.0.0.1:9/advance' } } };
    const result = await run({ modules: [b, hooked, c], suites: ['b', 'hooked', 'c'], targets: { hooked: { section, label: 'service', secrets: [] } }, seed: 1 });
    expect(result.suites.map((s) => `${s.name}:${s.cases[0]?.outcome}`)).toEqual(['b:passed', 'hooked:passed', 'c:passed']);
    const at = (suite: string): Visit => visits.find((v) => v.suite === suite) as Visit;
    expect(at('hooked').from).toBeGreaterThanOrEqual(at('b').to);
    expect(at('c').from).toBeGreaterThanOrEqual(at('hooked').to);
  });

  it('are as many at once as docs/targets.md says', () => {
    const words = ['none', 'one', 'two', 'three', 'four'];
    const docs = readFileSync(fileURLToPath(new URL('../../docs/targets.md', import.meta.url)), 'utf8');
    expect(docs).toContain(`A run of several suites runs ${words[DEFAULT_SUITES_AT_ONCE]} live suites at a time`);
  });
});
