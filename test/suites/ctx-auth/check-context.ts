import type { HttpRequestSpec } from '../../../src/engine/model.js';
import type { CheckContext, CheckResponse, FailureInput } from '../../../src/engine/suite-module.js';
import { encodeForm, encodeJson } from '../../../src/targets/request-body.js';
import { createHttpClient, HTTP_DEFAULTS } from '../../../src/targets/http-client.js';
import type { HttpClient, UserAgentDriver } from '../../../src/targets/types.js';

/**
 * Check contexts for the ctx-auth server-side checks, outside the engine: a scripted one that
 * answers each request with what a router says (planted answers), and one that sends the requests
 * to a real server. Both record what was sent, the failures, the notes, and how a case ended.
 */

/** An answer the router gives. */
export interface Answer {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: unknown;
}

/** How a check ended the case on purpose. */
export class Ended extends Error {
  constructor(
    readonly how: 'skipped' | 'not-applicable',
    readonly reason: string,
  ) {
    super(`${how}: ${reason}`);
  }
}

/** A check ended the case blocked by a rule it rests on (`ctx.blocked`). */
export class Blocked extends Error {
  constructor(
    readonly by: string,
    readonly reason: string,
  ) {
    super(`blocked by ${by}: ${reason}`);
  }
}

export interface Probe {
  ctx: CheckContext;
  sent: HttpRequestSpec[];
  failures: FailureInput[];
  notes: string[];
}

function baseContext(vars: Record<string, unknown>, send: (spec: HttpRequestSpec) => Promise<CheckResponse>, agent?: UserAgentDriver): Probe {
  const sent: HttpRequestSpec[] = [];
  const failures: FailureInput[] = [];
  const notes: string[] = [];
  const ctx = {
    suite: 'ctx-auth',
    caseId: 'probe',
    requirements: [],
    vars,
    agent,
    signal: new AbortController().signal,
    request: async (spec: HttpRequestSpec) => {
      sent.push(spec);
      return send(spec);
    },
    exchange: (ex: { summary: string }) => void notes.push(ex.summary),
    fail: (f: FailureInput) => void failures.push(f),
    skip: (reason: string): never => {
      throw new Ended('skipped', reason);
    },
    notApplicable: (reason: string): never => {
      throw new Ended('not-applicable', reason);
    },
    blocked: (requirement: string, reason: string): never => {
      throw new Blocked(requirement, reason);
    },
    observed: () => undefined,
    noEvidence: () => undefined,
  } as unknown as CheckContext;
  return { ctx, sent, failures, notes };
}

/** A context whose requests are answered by `route`. */
export function scriptedContext(vars: Record<string, unknown>, route: (spec: HttpRequestSpec) => Answer, agent?: UserAgentDriver): Probe {
  return baseContext(
    vars,
    async (spec) => {
      const a = route(spec);
      const bodyText = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
      return { status: a.status, headers: a.headers ?? {}, body: a.body, bodyText, bodyBytes: Buffer.from(bodyText), durationMs: 1, exchange: { kind: 'http', summary: `${spec.method ?? 'GET'} ${spec.url ?? ''} -> ${a.status}` } };
    },
    agent,
  );
}

/** A context that sends its requests to a real server through specgate's HTTP client; `close` ends the client. */
export function liveContext(vars: Record<string, unknown>): Probe & { close(): Promise<void> } {
  const http: HttpClient = createHttpClient({ ...HTTP_DEFAULTS, userAgent: 'specgate-test' });
  const probe = baseContext(vars, async (spec) => {
    const headers: Record<string, string> = Object.fromEntries(Object.entries(spec.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    let body: string | undefined;
    if (spec.form !== undefined) {
      body = encodeForm(spec.form);
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (spec.json !== undefined) {
      body = encodeJson(spec.json);
      headers['content-type'] ??= 'application/json';
    }
    if (spec.accept) headers['accept'] = spec.accept === 'json' ? 'application/json' : spec.accept;
    const url = new URL(spec.url ?? '');
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined && v !== null) url.searchParams.append(k, String(v));
    const method = spec.method ?? (body === undefined ? 'GET' : 'POST');
    const res = await http.send({ method, url: url.href, headers, ...(body === undefined ? {} : { body }) });
    return { ...res, exchange: { kind: 'http', summary: `${method} ${url.href} -> ${res.status}` } };
  });
  return { ...probe, close: () => http.close() };
}

/** How a check run ended: normally, skipped / not applicable / blocked with a reason, or with an error (its code). */
export async function outcome(
  run: Promise<void>,
): Promise<{ ended: 'ran' } | { ended: 'skipped' | 'not-applicable'; reason: string } | { ended: 'blocked'; by: string; reason: string } | { ended: 'error'; code: string; message: string }> {
  try {
    await run;
    return { ended: 'ran' };
  } catch (e) {
    if (e instanceof Ended) return { ended: e.how, reason: e.reason };
    if (e instanceof Blocked) return { ended: 'blocked', by: e.by, reason: e.reason };
    const err = e as { code?: string; message?: string };
    return { ended: 'error', code: err.code ?? 'unknown', message: err.message ?? String(e) };
  }
}
