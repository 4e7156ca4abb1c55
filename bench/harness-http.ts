import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, Agent } from 'undici';
import { loadSuites, type LoadedSuites } from '../src/engine/load-suites.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { judgeFigure } from './goals.js';
import { loadingFigures, timedRun } from './timed-run.js';
import { formatFigure, interleaveAll, roundRatios, summarize } from './rounds.js';

/** The overhead the engine may add over the bare loop: at most 10%. */
const GOAL = 1.1;

/**
 * Harness overhead on plain HTTP checks: N identical GET+assert cases through the whole engine
 * (loading, expressions, matching, verdicts) against a local server, side by side with a bare
 * undici loop doing the same requests and assertions at the same concurrency, in interleaved
 * rounds (bench/rounds.ts). Goal: median ratio ≤ {@link GOAL}. Reported beside it, from the same
 * rounds: how long loading the suite took (from the call of `run` until it has the suite loaded
 * and checked, `onLoaded`), the ratio of the rest of the run (selection, the target's checks,
 * the cases, the verdicts) to the bare loop, which loads nothing, and a third side of each
 * round: the same run given the suite loaded once before the rounds (`RunOptions.loaded`): the
 * engine's cost per case with loading taken out, and with what the engine keeps per loaded
 * object (parsed steps, checked arguments, values known to hold no expression) kept from one
 * run to the next, where a run of the CLI loads fresh objects and fills those again.
 */
const N = Number(process.env['BENCH_N'] ?? 2000);
const CONCURRENCY = 8;

function startServer(): Promise<Server> {
  const body = JSON.stringify({ id: 42, name: 'widget', tags: ['a', 'b'], price: 9.5 });
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function writeSuite(dir: string): SuiteModule {
  mkdirSync(join(dir, 'cases'), { recursive: true });
  writeFileSync(join(dir, 'requirements.yaml'), '- id: BENCH-GET-ITEM\n  level: MUST\n  source: bench#item\n  text: GET /item answers the item\n');
  const cases: string[] = [];
  for (let i = 0; i < N; i++)
    cases.push(`- id: get-item-${i}\n  requirements: [BENCH-GET-ITEM]\n  steps:\n    - request: { method: GET, url: "\${base}/item/${i}" }\n      expect: { status: 200, body: { id: 42, name: widget, tags: [a, b] } }\n`);
  writeFileSync(join(dir, 'cases', 'items.yaml'), cases.join(''));
  return { name: 'bench', dir };
}

/** One run of the suite through the engine: its time and the part of it spent loading (ms); with `loaded`, of the suite loaded before. */
async function timeSpecgate(module: SuiteModule, base: string, loaded?: LoadedSuites): Promise<{ ms: number; loadMs: number }> {
  const { result, ms, loadMs } = await timedRun({
    modules: [module],
    suites: ['bench'],
    targets: { bench: { section: { vars: { base } }, label: 'bench server', secrets: [] } },
    concurrency: CONCURRENCY,
    seed: 1,
    ...(loaded ? { loaded } : {}),
  });
  if (result.summary.cases.passed !== N) throw new Error(`specgate: expected ${N} passing cases, got ${JSON.stringify(result.summary.cases)}`);
  return { ms, loadMs };
}

async function timeBare(base: string): Promise<number> {
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const t = performance.now();
  let next = 0;
  let passed = 0;
  const worker = async (): Promise<void> => {
    while (next < N) {
      const i = next++;
      const res = await request(`${base}/item/${i}`, { method: 'GET', dispatcher: agent });
      const body = (await res.body.json()) as { id: number; name: string; tags: string[] };
      if (res.statusCode === 200 && body.id === 42 && body.name === 'widget' && body.tags.length === 2 && body.tags[0] === 'a' && body.tags[1] === 'b') passed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const ms = performance.now() - t;
  await agent.close();
  if (passed !== N) throw new Error(`bare loop: ${passed}/${N} passed`);
  return ms;
}

export async function runBench(): Promise<void> {
  const server = await startServer();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'specgate-bench-'));
  try {
    const module = writeSuite(dir);
    // the third side's suite, loaded once here: its runs load nothing
    const loaded = loadSuites([module], ['bench']);
    // one warm-up round (JIT, connection pools, file cache), then the rounds measured, in the order of bench/rounds.ts roundOrder
    // the loading of the run just timed, kept for its round (the warm-up round has none)
    let lastLoadMs = Number.NaN;
    const loads: number[] = [];
    const sides = await interleaveAll(
      {
        bare: () => timeBare(base),
        specgate: async () => {
          const { ms, loadMs } = await timeSpecgate(module, base);
          lastLoadMs = loadMs;
          return ms;
        },
        loaded: async () => (await timeSpecgate(module, base, loaded)).ms,
      },
      {
        onRound: (r, v) => {
          loads.push(lastLoadMs);
          const bare = v['bare'] ?? Number.NaN;
          console.log(`  round ${r}: bare undici ${bare.toFixed(0)} ms, specgate ${v['specgate']?.toFixed(0)} ms (loading ${lastLoadMs.toFixed(1)} ms), ratio ${((v['specgate'] ?? Number.NaN) / bare).toFixed(2)}; the suite loaded before ${v['loaded']?.toFixed(0)} ms, ratio ${((v['loaded'] ?? Number.NaN) / bare).toFixed(2)}`);
        },
      },
    );
    const label = `harness overhead, ${N} GET+assert cases at concurrency ${CONCURRENCY}`;
    console.log(judgeFigure(label, summarize(roundRatios(sides, 'specgate', 'bare')), { goal: { op: '<=', value: GOAL } }));
    for (const line of loadingFigures(label, loads, sides['specgate']?.values ?? [], sides['bare']?.values ?? [], 'the run once the suite is loaded')) console.log(line);
    console.log(formatFigure(`  ${label}, the same run given the suite loaded before it`, summarize(roundRatios(sides, 'loaded', 'bare'))));
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
