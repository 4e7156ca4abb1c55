import { matchOperation } from '../../../src/engine/api/match-exchange.js';
import type { ApiOperation, ApiTable } from '../../../src/engine/api/table.js';
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
 * A request a client sent, as the judges read it: from a live run's recording proxy or from a
 * recorded file (passive/client-requests.ts).
 */
export interface SentRequest {
  method: string;
  /**
   * The path judged: below the service's root, dot segments resolved as a server resolves them,
   * and the target's words for neutral segments mapped back (profile `paths:`).
   */
  path: string;
  /** The path as sent, as messages name it. */
  shown: string;
  /** The root of the service the request was sent to, before the prefix ('' for a service at its host's root). */
  root: string;
  /** The request body as text ('' for none). */
  body: string;
}

/** A request the live run's proxy recorded, as the judges read it: the proxy is the service's root. */
export function sentOf(x: ProxiedExchange): SentRequest {
  const path = new URL(x.forwardedUrl, 'http://client.invalid').pathname;
  return { method: x.method, path, shown: path, root: '', body: x.requestBody };
}

/**
 * Where a request stands: below the prefix or not; a path of the table with its method, a
 * path of the table with another method (or with the method of another operation of the path
 * than the one its body shows it meant), a batch path with something before the group (a
 * merchant id), or no path of the table at all.
 */
export function place(table: ApiTable, x: SentRequest): Placement {
  const path = x.path;
  if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return { kind: 'prefix', why: `${x.method} ${x.shown} is not below ${x.root}${PREFIX}` };
  const rest = path.slice(PREFIX.length) || '/';
  const m = matchOperation(table, x.method, rest);
  if (m.ok) {
    const meant = meantOtherwise(table, x, m.operation);
    return meant ? { kind: 'method', why: `${x.method} ${x.shown}: ${meant}` } : { kind: 'ok' };
  }
  // a batch call with a segment before its group is a batch-path fault, whatever else its path happens to fit
  const batch = /^\/[^/]+(\/[^/]+\/batch)$/.exec(rest)?.[1];
  const batchOp = batch ? table.operations.find((o) => o.batch && o.path === batch) : undefined;
  if (batchOp) return { kind: 'batch', why: `${x.method} ${x.shown}: ${batchOp.id} is POST ${PREFIX}${batchOp.path}, with no merchant id in the path` };
  if (m.reason === 'wrong-method') return { kind: 'method', why: `${x.method} ${x.shown}: ${m.message}` };
  return { kind: 'route', why: `${x.method} ${x.shown}: ${m.message}` };
}

/** Whether an operation takes a request body: a payload of its own, or a batch envelope. */
const takesBody = (op: ApiOperation): boolean => op.request !== undefined || op.batch !== undefined;

/**
 * The operation a request that fits the table meant, when its method is not that operation's:
 * a path with operations that take a body and operations that take none (`/{merchantId}/products`:
 * GET list, POST insert) tells them apart by the request's body. A request whose body does not fit
 * the operation its method names, while another operation of the path fits it, meant that one:
 * a bodiless POST there is a list sent with the insert's method, a DELETE carrying a body an
 * update sent with the delete's. Undefined when the request fits its operation, or no other.
 */
function meantOtherwise(table: ApiTable, x: SentRequest, sent: ApiOperation): string | undefined {
  const hasBody = x.body.trim() !== '';
  if (takesBody(sent) === hasBody) return undefined;
  // operations of the very same path template: a bare `{id}` also fits `{id}:undelete`, which is another path
  const others = table.operations.filter((op) => op.path === sent.path && op.method !== sent.method && takesBody(op) === hasBody);
  if (!others.length) return undefined;
  const meant = others.map((op) => `${op.id} (${op.method})`).join(' or ');
  return hasBody
    ? `carries a body, which ${sent.id} (${sent.method}) takes none of: the operation of this path that takes one is ${meant}`
    : `carries no body, which ${sent.id} (${sent.method}) needs: the operation of this path without one is ${meant}`;
}

function exchangeOf(x: ProxiedExchange): Exchange {
  return { kind: 'http', summary: `${x.method} ${x.url} -> ${x.status}`, request: { method: x.method, url: x.url, ...(x.requestBody ? { body: cutText(x.requestBody, 2000) } : {}) }, response: { status: x.status, body: cutText(x.responseBody, 2000) } };
}

/** The requests of a list placed in `kind`, each with why. */
export function misplaced<R extends SentRequest>(table: ApiTable, requests: readonly R[], kind: Placement['kind']): { request: R; why: string }[] {
  return requests.flatMap((request) => {
    const p = place(table, request);
    return p.kind === kind && 'why' in p ? [{ request, why: p.why }] : [];
  });
}

/** What each client-side requirement fails on: the kind of placement, and the rule in words. */
export const CLIENT_RULES: Readonly<Record<string, { kind: Exclude<Placement['kind'], 'ok'>; rule: string }>> = {
  'MERCHANT-CLIENT-PREFIX': { kind: 'prefix', rule: `are not below ${PREFIX}` },
  'MERCHANT-CLIENT-ROUTE': { kind: 'route', rule: 'fit no path of the endpoint tables' },
  'MERCHANT-CLIENT-METHOD': { kind: 'method', rule: 'use a method the endpoint tables do not give the operation they mean' },
  'MERCHANT-CLIENT-BATCH-PATH': { kind: 'batch', rule: 'put a merchant id before a custombatch path' },
};

/** A judge that fails on every request of a live run placed in `kind`, naming up to five of them. */
function every(kind: Placement['kind'], rule: string): Judge<JudgedRun> {
  return (run) => {
    if (run.exchanges.length === 0) return { unjudged: `the client sent no request (it ${run.finished.stopped ? 'was stopped' : 'ended'}: ${run.finished.exchange.summary}; stderr: ${cutTail(run.finished.stderr, 300) || 'empty'})` };
    const bad = misplaced(run.table, run.exchanges.map((x) => ({ ...sentOf(x), x })), kind);
    if (!bad.length) return PASS;
    const first = bad[0] as (typeof bad)[number];
    const whys = bad.slice(0, 5).map((b) => b.why);
    const verdict: Verdict = fail(`${bad.length} of ${run.exchanges.length} requests ${rule}: ${whys.join('; ')}${bad.length > 5 ? '; ...' : ''}`, {
      actual: bad.map(({ request: { x } }) => `${x.method} ${x.url}`).slice(0, 20),
      exchange: exchangeOf(first.request.x),
    });
    return verdict;
  };
}

/** One judge per client-side requirement, each over every request of one run. */
export const CLIENT_JUDGES: Readonly<Record<string, Judge<JudgedRun>>> = Object.fromEntries(Object.entries(CLIENT_RULES).map(([id, r]) => [id, every(r.kind, r.rule)]));
