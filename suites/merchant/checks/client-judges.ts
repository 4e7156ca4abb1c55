import { matchOperation } from '../../../src/engine/api/match-exchange.js';
import type { ApiTable } from '../../../src/engine/api/table.js';
import { PASS, fail, type Judge, type Verdict } from '../../../src/engine/checks/contract.js';
import type { Exchange } from '../../../src/engine/model.js';
import type { ProxiedExchange } from '../../../src/targets/recording-proxy.js';
import type { ClientRun } from './client-run.js';
import { cutTail, cutText } from '../../../src/targets/text-cut.js';

/** The version prefix every request must carry (spec 001, D, Versioning 1). */
export const PREFIX = '/content/v2.1';

/** What the judges need: the run and the suite's route table. */
export interface JudgedRun extends ClientRun {
  table: ApiTable;
}

/** How one request sits against the route table. */
type Placement =
  | { kind: 'ok' }
  | { kind: 'prefix'; why: string }
  | { kind: 'batch'; why: string }
  | { kind: 'route'; why: string }
  | { kind: 'method'; why: string };

/**
 * The path judged: as the client sent it, with dot segments resolved as a server resolves them
 * and the target's words for neutral segments mapped back (profile `paths:`).
 */
function pathOf(x: ProxiedExchange): string {
  return new URL(x.forwardedUrl, 'http://client.invalid').pathname;
}

/**
 * Where a request stands: below the prefix or not; a path of the table with its method, a
 * path of the table with another method, a batch path with something before the group (a
 * merchant id), or no path of the table at all.
 */
export function place(table: ApiTable, x: ProxiedExchange): Placement {
  const path = pathOf(x);
  if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return { kind: 'prefix', why: `${x.method} ${path} is not below ${PREFIX}` };
  const rest = path.slice(PREFIX.length) || '/';
  const m = matchOperation(table, x.method, rest);
  if (m.ok) return { kind: 'ok' };
  // a batch call with a segment before its group is a batch-path fault, whatever else its path happens to fit
  const batch = /^\/[^/]+(\/[^/]+\/batch)$/.exec(rest)?.[1];
  const batchOp = batch ? table.operations.find((o) => o.batch && o.path === batch) : undefined;
  if (batchOp) return { kind: 'batch', why: `${x.method} ${path}: ${batchOp.id} is POST ${PREFIX}${batchOp.path}, with no merchant id in the path` };
  if (m.reason === 'wrong-method') return { kind: 'method', why: `${x.method} ${path}: ${m.message}` };
  return { kind: 'route', why: `${x.method} ${path}: ${m.message}` };
}

function exchangeOf(x: ProxiedExchange): Exchange {
  return { kind: 'http', summary: `${x.method} ${x.url} -> ${x.status}`, request: { method: x.method, url: x.url, ...(x.requestBody ? { body: cutText(x.requestBody, 2000) } : {}) }, response: { status: x.status, body: cutText(x.responseBody, 2000) } };
}

/** A judge that fails on every request placed in `kind`, naming up to five of them. */
function every(kind: Placement['kind'], rule: string): Judge<JudgedRun> {
  return (run) => {
    if (run.exchanges.length === 0) return { unjudged: `the client sent no request (it ${run.finished.stopped ? 'was stopped' : 'ended'}: ${run.finished.exchange.summary}; stderr: ${cutTail(run.finished.stderr, 300) || 'empty'})` };
    const bad = run.exchanges.map((x) => ({ x, p: place(run.table, x) })).filter(({ p }) => p.kind === kind);
    if (!bad.length) return PASS;
    const first = bad[0] as (typeof bad)[number];
    const whys = bad.slice(0, 5).map(({ p }) => ('why' in p ? p.why : ''));
    const verdict: Verdict = fail(`${bad.length} of ${run.exchanges.length} requests ${rule}: ${whys.join('; ')}${bad.length > 5 ? '; ...' : ''}`, {
      actual: bad.map(({ x }) => `${x.method} ${x.url}`).slice(0, 20),
      exchange: exchangeOf(first.x),
    });
    return verdict;
  };
}

/** One judge per client-side requirement, each over every request of one run. */
export const CLIENT_JUDGES: Readonly<Record<string, Judge<JudgedRun>>> = {
  'MERCHANT-CLIENT-PREFIX': every('prefix', `are not below ${PREFIX}`),
  'MERCHANT-CLIENT-ROUTE': every('route', 'fit no path of the endpoint tables'),
  'MERCHANT-CLIENT-METHOD': every('method', 'use a method the endpoint tables do not give their path'),
  'MERCHANT-CLIENT-BATCH-PATH': every('batch', 'put a merchant id before a custombatch path'),
};
