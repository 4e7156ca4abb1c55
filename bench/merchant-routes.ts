import { Agent, request } from 'undici';
import { loadSuites, run } from '../src/engine/run.js';
import { startRecordingProxy, type ProxiedExchange } from '../src/targets/recording-proxy.js';
import { startMerchantServer } from '../reference/merchant/server/server.js';
import { suite } from '../suites/merchant/index.js';
import { formatFigure, interleave, roundCount, roundHead, summarize } from './rounds.js';

/** The overhead the route checks may add over the bare requests: at most 20%. */
const GOAL = 1.2;

/**
 * The merchant suite's cost, measured side by side in one run:
 *
 * 1. the whole server side of the suite (every case but the client ones) against the reference
 *    service, in wall-clock time (goal: under 5 s on 2 cores);
 * 2. the route checks (one `api.served` case per operation, 135) through the whole engine vs a
 *    bare undici loop sending exactly the requests those cases sent (recorded once through a
 *    proxy), at the same concurrency, each against a fresh reference service (goal: ratio <= {@link GOAL}).
 *
 * Both figures are medians of interleaved rounds (bench/rounds.ts).
 */
const CONCURRENCY = 8;

function caseIds(): { server: string[]; routes: string[] } {
  const loaded = loadSuites([suite], ['merchant']).suites[0];
  const ids = (loaded?.cases ?? []).map((c) => c.id);
  return { server: ids.filter((id) => !id.startsWith('client-')), routes: ids.filter((id) => id.startsWith('op-')) };
}

/** Runs `cases` against a fresh reference service; with `record`, through a proxy that keeps the requests sent. */
async function timeSpecgate(cases: string[], record = false): Promise<{ ms: number; exchanges: ProxiedExchange[] }> {
  const service = await startMerchantServer({});
  const proxy = record ? await startRecordingProxy(service.url) : undefined;
  try {
    const vars = { merchant_url: proxy?.url ?? service.url, merchant_id: service.merchantId, css_group_id: service.cssGroupId, css_domain_id: service.cssDomainId, country: 'US' };
    const t = performance.now();
    const result = await run({ modules: [suite], suites: ['merchant'], cases, targets: { merchant: { section: { vars }, label: 'reference', secrets: [] } }, concurrency: CONCURRENCY, seed: 1 });
    const ms = performance.now() - t;
    if (result.summary.cases.passed !== cases.length) throw new Error(`specgate: expected ${cases.length} passing cases, got ${JSON.stringify(result.summary.cases)}`);
    return { ms, exchanges: proxy ? [...proxy.exchanges] : [] };
  } finally {
    await proxy?.stop();
    await service.stop();
  }
}

/** The recorded requests again, with undici, at the same concurrency; every answer read and its status checked. */
async function timeBare(exchanges: ProxiedExchange[]): Promise<number> {
  const service = await startMerchantServer({});
  const agent = new Agent({ keepAliveTimeout: 4000 });
  try {
    const t = performance.now();
    let next = 0;
    let failed = 0;
    const worker = async (): Promise<void> => {
      while (next < exchanges.length) {
        const x = exchanges[next++] as ProxiedExchange;
        const res = await request(`${service.url}${x.url}`, { method: x.method as 'GET', dispatcher: agent, ...(x.requestBody ? { body: x.requestBody, headers: { 'content-type': 'application/json' } } : {}) });
        const text = await res.body.text();
        if (res.statusCode >= 500 || (text && res.statusCode < 300 && text[0] !== '{')) failed++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const ms = performance.now() - t;
    if (failed) throw new Error(`bare loop: ${failed} answers were not JSON or were 5xx`);
    return ms;
  } finally {
    await agent.close();
    await service.stop();
  }
}

export async function runBench(): Promise<void> {
  const { server, routes } = caseIds();
  const rounds = roundCount();
  // the request list of the route checks (recorded through the proxy); then a warm-up round of both sides
  const { exchanges } = await timeSpecgate(routes, true);
  const result = await interleave(
    () => timeBare(exchanges),
    async () => (await timeSpecgate(routes)).ms,
    {
      rounds,
      onRound: (r) => console.log(`  route checks ${roundHead(r)}: bare undici ${r.bare.toFixed(0)} ms, specgate ${r.specgate.toFixed(0)} ms, ratio ${r.ratio.toFixed(2)}`),
    },
  );
  console.log(formatFigure(`merchant route checks, ${routes.length} operations (${exchanges.length} requests) at concurrency ${CONCURRENCY}`, result.ratio, { goal: { op: '<=', value: GOAL } }));
  // the whole server side, in wall-clock time: no bare side, the same number of rounds after one warm-up
  await timeSpecgate(server);
  const whole: number[] = [];
  for (let r = 0; r < rounds; r++) {
    whole.push((await timeSpecgate(server)).ms / 1000);
    console.log(`  whole server side round ${r + 1}: ${whole[r]?.toFixed(2)} s`);
  }
  console.log(formatFigure(`merchant suite, server side (${server.length} cases) against the reference`, summarize(whole), { name: 'median wall time', unit: ' s', goal: { op: '<', value: 5 } }));
}
