import { Agent, request } from 'undici';
import type { EngineEvent } from '../src/engine/events.js';
import { exclusiveGroup, isExclusive } from '../src/engine/exclusive-group.js';
import type { CaseDef } from '../src/engine/model.js';
import { loadSuites, run, type LoadedSuites } from '../src/engine/run.js';
import { startRecordingProxy, type ProxiedExchange } from '../src/targets/recording-proxy.js';
import { startMerchantServer } from '../reference/merchant/server/server.js';
import { suite } from '../suites/merchant/index.js';
import { judgeFigure } from './goals.js';
import { loadingFigures, timedRun } from './timed-run.js';
import { formatFigure, interleaveAll, roundCount, roundRatios, summarize } from './rounds.js';

/** The overhead the route checks may add over the bare requests: at most 20%. */
const GOAL = 1.2;

/**
 * The merchant suite's cost, measured side by side in one run:
 *
 * 1. the whole server side of the suite (every case but the client ones) against the reference
 *    service, in wall-clock time (goal: under 5 s on 2 cores);
 * 2. the route checks (one `api.served` case per operation, 135) through the whole engine vs a
 *    bare undici loop sending exactly the requests those cases sent (recorded once through a
 *    proxy), at the same concurrency, each against a fresh reference service (goal: ratio <= {@link GOAL}),
 *    as two figures: against the requests sent in any order (the loop takes the next request
 *    whenever one of its 8 senders is free), and against the same requests kept in the order the
 *    cases must keep (`orderedBare`): each case's requests one after another, the cases that run
 *    beside any other first, then each exclusive group's cases one at a time (the groups side by
 *    side), then the cases that run alone. The engine keeps that order, so only the second loop
 *    does the same work; the first is kept to compare with earlier figures.
 *
 * The figures are medians of interleaved rounds (bench/rounds.ts). Reported beside the second
 * ratio, from the same rounds: how long loading the suite took (from the call of `run` until it
 * has the suite loaded and checked, `onLoaded`), the ratio of the rest of the run
 * (selection, the target's checks, the cases, the verdicts) to the ordered loop, which loads
 * nothing, and a fourth side of each round: the same run given the suite loaded once before the
 * rounds (`RunOptions.loaded`): the engine's cost per route check with loading taken out, and
 * with what it keeps per loaded object (the arbitraries of each schema, parsed steps, checked
 * arguments) kept from one run to the next, where a run of the CLI fills those again.
 */
const CONCURRENCY = 8;

/** The suite loaded, and the IDs of its server-side cases and of its route checks. */
function caseIds(): { loaded: LoadedSuites; server: string[]; routes: string[]; defs: Map<string, CaseDef> } {
  const loaded = loadSuites([suite], ['merchant']);
  const cases = loaded.suites[0]?.cases ?? [];
  const ids = cases.map((c) => c.id);
  return { loaded, server: ids.filter((id) => !id.startsWith('client-')), routes: ids.filter((id) => id.startsWith('op-')), defs: new Map(cases.map((c) => [c.id, c])) };
}

/** The requests of each case, in the order the case sent them. */
type CaseRequests = Map<string, ProxiedExchange[]>;

/**
 * Runs `cases` once at concurrency 1 through the recording proxy, so that the requests between
 * one case's start and the next's are that case's (the proxy records a request when it arrives).
 */
async function recordByCase(cases: string[]): Promise<CaseRequests> {
  const service = await startMerchantServer({});
  const proxy = await startRecordingProxy(service.url);
  try {
    const vars = { merchant_url: proxy.url, merchant_id: service.merchantId, css_group_id: service.cssGroupId, css_domain_id: service.cssDomainId, country: 'US' };
    const starts: { id: string; at: number }[] = [];
    const sink = (e: EngineEvent): void => {
      if (e.type === 'case-start') starts.push({ id: e.caseId, at: proxy.exchanges.length });
    };
    const result = await run({ modules: [suite], suites: ['merchant'], cases, targets: { merchant: { section: { vars }, label: 'reference', secrets: [] } }, concurrency: 1, seed: 1, sinks: [sink] });
    if (result.summary.cases.passed !== cases.length) throw new Error(`specgate (recording by case): expected ${cases.length} passing cases, got ${JSON.stringify(result.summary.cases)}`);
    const byCase: CaseRequests = new Map();
    starts.forEach((s, i) => byCase.set(s.id, proxy.exchanges.slice(s.at, starts[i + 1]?.at ?? proxy.exchanges.length)));
    return byCase;
  } finally {
    await proxy.stop();
    await service.stop();
  }
}

/** One request sent again with undici; true when the answer is not 5xx and a 2xx body is JSON. */
async function resend(base: string, agent: Agent, x: ProxiedExchange): Promise<boolean> {
  const res = await request(`${base}${x.url}`, { method: x.method as 'GET', dispatcher: agent, ...(x.requestBody ? { body: x.requestBody, headers: { 'content-type': 'application/json' } } : {}) });
  const text = await res.body.text();
  return !(res.statusCode >= 500 || (text && res.statusCode < 300 && text[0] !== '{'));
}

/**
 * Runs `cases` against a fresh reference service; with `record`, through a proxy that keeps the
 * requests sent; with `loaded`, of the suite loaded before (RunOptions.loaded). Its time and the
 * part spent loading (ms, bench/timed-run.ts).
 */
async function timeSpecgate(cases: string[], record = false, loaded?: LoadedSuites): Promise<{ ms: number; loadMs: number; exchanges: ProxiedExchange[] }> {
  const service = await startMerchantServer({});
  const proxy = record ? await startRecordingProxy(service.url) : undefined;
  try {
    const vars = { merchant_url: proxy?.url ?? service.url, merchant_id: service.merchantId, css_group_id: service.cssGroupId, css_domain_id: service.cssDomainId, country: 'US' };
    const { result, ms, loadMs } = await timedRun({ modules: [suite], suites: ['merchant'], cases, targets: { merchant: { section: { vars }, label: 'reference', secrets: [] } }, concurrency: CONCURRENCY, seed: 1, ...(loaded ? { loaded } : {}) });
    if (result.summary.cases.passed !== cases.length) throw new Error(`specgate: expected ${cases.length} passing cases, got ${JSON.stringify(result.summary.cases)}`);
    return { ms, loadMs, exchanges: proxy ? [...proxy.exchanges] : [] };
  } finally {
    await proxy?.stop();
    await service.stop();
  }
}

/** The recorded requests again, with undici, at the same concurrency, in any order; every answer read and its status checked. */
async function timeBare(exchanges: ProxiedExchange[]): Promise<number> {
  const service = await startMerchantServer({});
  const agent = new Agent({ keepAliveTimeout: 4000 });
  try {
    const t = performance.now();
    let next = 0;
    let failed = 0;
    const worker = async (): Promise<void> => {
      while (next < exchanges.length) if (!(await resend(service.url, agent, exchanges[next++] as ProxiedExchange))) failed++;
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

/**
 * The recorded requests again, at the same concurrency, in the order the engine keeps
 * (run-suite.ts): each case's requests in turn; the cases that run beside any other first, a
 * sender taking the next case whenever it is free; then the exclusive groups side by side, one
 * sender each (within the concurrency), each sending its cases' requests one after another;
 * then the cases that run alone, one at a time.
 */
async function timeOrderedBare(routes: string[], defs: Map<string, CaseDef>, byCase: CaseRequests): Promise<number> {
  const free: ProxiedExchange[][] = [];
  const alone: ProxiedExchange[][] = [];
  const groups = new Map<string, ProxiedExchange[]>();
  for (const id of routes) {
    const def = defs.get(id);
    const sent = byCase.get(id) ?? [];
    if (!def) throw new Error(`no case ${id}`);
    const group = exclusiveGroup(def);
    if (isExclusive(def)) alone.push(sent);
    else if (group === undefined) free.push(sent);
    else groups.set(group, [...(groups.get(group) ?? []), ...sent]);
  }
  const service = await startMerchantServer({});
  const agent = new Agent({ keepAliveTimeout: 4000 });
  try {
    let failed = 0;
    const inTurn = async (list: ProxiedExchange[]): Promise<void> => {
      for (const x of list) if (!(await resend(service.url, agent, x))) failed++;
    };
    const pooled = async (lists: ProxiedExchange[][]): Promise<void> => {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < lists.length) await inTurn(lists[next++] as ProxiedExchange[]);
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, lists.length) }, worker));
    };
    const t = performance.now();
    await pooled(free);
    await pooled([...groups.values()]);
    for (const list of alone) await inTurn(list);
    const ms = performance.now() - t;
    if (failed) throw new Error(`ordered bare loop: ${failed} answers were not JSON or were 5xx`);
    return ms;
  } finally {
    await agent.close();
    await service.stop();
  }
}

export async function runBench(): Promise<void> {
  // the suite loaded here is also the fourth side's, whose runs load nothing
  const { loaded, server, routes, defs } = caseIds();
  const rounds = roundCount();
  // the request list of the route checks (recorded through the proxy), and each case's own
  const { exchanges } = await timeSpecgate(routes, true);
  const byCase = await recordByCase(routes);
  const sent = [...byCase.values()].reduce((n, list) => n + list.length, 0);
  if (sent !== exchanges.length) throw new Error(`the route checks sent ${exchanges.length} requests at concurrency ${CONCURRENCY} and ${sent} one case at a time`);
  // one warm-up round of every side, then the rounds measured, in the order of bench/rounds.ts roundOrder
  // the loading of the run just timed, kept for its round (the warm-up round has none)
  let lastLoadMs = Number.NaN;
  const loads: number[] = [];
  const sides = await interleaveAll(
    {
      bare: () => timeBare(exchanges),
      ordered: () => timeOrderedBare(routes, defs, byCase),
      specgate: async () => {
        const { ms, loadMs } = await timeSpecgate(routes);
        lastLoadMs = loadMs;
        return ms;
      },
      loaded: async () => (await timeSpecgate(routes, false, loaded)).ms,
    },
    {
      rounds,
      onRound: (r, v) => {
        loads.push(lastLoadMs);
        console.log(
          `  route checks round ${r}: bare undici ${v['bare']?.toFixed(0)} ms, in the cases' order ${v['ordered']?.toFixed(0)} ms, specgate ${v['specgate']?.toFixed(0)} ms (loading ${lastLoadMs.toFixed(1)} ms), ratios ${((v['specgate'] ?? NaN) / (v['bare'] ?? NaN)).toFixed(2)} and ${((v['specgate'] ?? NaN) / (v['ordered'] ?? NaN)).toFixed(2)}; the suite loaded before ${v['loaded']?.toFixed(0)} ms, ratio to the ordered loop ${((v['loaded'] ?? NaN) / (v['ordered'] ?? NaN)).toFixed(2)}`,
        );
      },
    },
  );
  const label = `merchant route checks, ${routes.length} operations (${exchanges.length} requests) at concurrency ${CONCURRENCY}`;
  // the loop that ignores the order the cases keep does less work: reported, to compare with earlier figures
  console.log(formatFigure(`${label}, bare requests in any order`, summarize(roundRatios(sides, 'specgate', 'bare'))));
  console.log(judgeFigure(`${label}, bare requests in the order the cases keep`, summarize(roundRatios(sides, 'specgate', 'ordered')), { goal: { op: '<=', value: GOAL } }));
  // apart from what the suite costs once: its loading, and the rest of the run against the same loop
  for (const line of loadingFigures(label, loads, sides['specgate']?.values ?? [], sides['ordered']?.values ?? [], 'the run once the suite is loaded, bare requests in the order the cases keep')) console.log(line);
  console.log(formatFigure(`  ${label}, the same run given the suite loaded before it, bare requests in the order the cases keep`, summarize(roundRatios(sides, 'loaded', 'ordered'))));
  // the whole server side, in wall-clock time: no bare side, the same number of rounds after one warm-up
  await timeSpecgate(server);
  const whole: number[] = [];
  for (let r = 0; r < rounds; r++) {
    whole.push((await timeSpecgate(server)).ms / 1000);
    console.log(`  whole server side round ${r + 1}: ${whole[r]?.toFixed(2)} s`);
  }
  console.log(judgeFigure(`merchant suite, server side (${server.length} cases) against the reference`, summarize(whole), { name: 'median wall time', unit: ' s', goal: { op: '<', value: 5 } }));
}
