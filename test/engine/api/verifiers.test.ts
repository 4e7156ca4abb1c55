/**
 * The api.* verifiers against the recording stand-in: it answers as the table says, so every
 * verifier passes; a handler or a table difference plants one fault, and the verifier that
 * judges it fails, naming what it saw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { resolveDeep } from '../../../src/engine/expressions.js';
import { operationRequest } from '../../../src/engine/api/operation-request.js';
import { startStandIn, type StandIn, type StandInOptions } from '../../../src/engine/api/stand-in-server.js';
import type { ApiTable } from '../../../src/engine/api/table.js';
import { API_CHECKS } from '../../../src/engine/api/verifiers/index.js';
import { runProperty } from '../../../src/engine/runtime/property.js';
import type { CheckContext, CheckResponse, FailureInput } from '../../../src/engine/suite-module.js';
import { notesTable } from './example-table.js';

/** Just enough of a check context: requests by operation over undici, failures collected. */
function contextFor(table: ApiTable, url: string, failures: FailureInput[]): CheckContext {
  const vars = { api_url: url, api_token: 'good' };
  const resolve = (v: unknown): unknown => resolveDeep(v, { vars, env: {} });
  const ctx = {
    suite: 'notes',
    caseId: 'c',
    requirements: ['R'],
    vars,
    api: { table, models: {} },
    seed: 5,
    runs: 10,
    signal: new AbortController().signal,
    resolve,
    fail: (f: FailureInput) => failures.push(f),
    request: async (given: Parameters<CheckContext['request']>[0]): Promise<CheckResponse> => {
      const spec = operationRequest(table, given, resolve);
      const u = new URL(String(spec.url));
      for (const [k, v] of Object.entries(spec.query ?? {})) u.searchParams.set(k, String(v));
      const res = await request(u, {
        method: (spec.method ?? 'GET') as 'GET',
        headers: { ...(spec.headers ?? {}), ...(spec.json === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(spec.json === undefined ? {} : { body: JSON.stringify(spec.json) }),
      });
      const bodyText = await res.body.text();
      const exchange = { kind: 'http' as const, summary: `${spec.method ?? 'GET'} ${u.pathname} -> ${res.statusCode}` };
      return { status: res.statusCode, headers: {}, bodyBytes: new Uint8Array(), bodyText, body: bodyText ? (JSON.parse(bodyText) as unknown) : undefined, durationMs: 0, exchange };
    },
    property: async <T>(arb: Parameters<CheckContext['property']>[0], predicate: (v: T) => Promise<FailureInput | void>) => {
      const out = await runProperty(arb as never, async (v: T) => {
        const f = await predicate(v);
        return f ? [f] : [];
      }, { seed: 5, runs: 10, signal: new AbortController().signal });
      failures.push(...(out.failures as FailureInput[]));
      return { seed: 5, runs: out.runs, counterexample: out.counterexample };
    },
  };
  return ctx as unknown as CheckContext;
}

async function judge(check: string, args: Record<string, unknown>, opts: Partial<StandInOptions> = {}, judgeWith?: ApiTable): Promise<string[]> {
  const table = notesTable();
  s = await startStandIn({ table, credential: 'Bearer good', ...opts });
  const failures: FailureInput[] = [];
  const verifier = API_CHECKS[check];
  if (!verifier) throw new Error(`no verifier ${check}`);
  await verifier.run(contextFor(judgeWith ?? table, s.url, failures), args as never);
  return failures.map((f) => f.message);
}

let s: StandIn | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

describe('api.* verifiers', () => {
  it.each([
    ['served', { operation: 'getNote' }],
    ['served', { operation: 'deleteNote' }],
    ['schema', { operation: 'updateNote' }],
    ['wrongMethod', { operation: 'batchCreateNotes' }],
    ['authRequired', { operation: 'createNote' }],
    ['pagingDefault', { operation: 'listNotes' }],
    ['pagingLimit', { operation: 'listNotes' }],
    ['pagingWalk', { operation: 'listNotes' }],
    ['batch', { operation: 'batchCreateNotes' }],
    ['sequence', { resource: 'note' }],
  ])('%s %j passes against a stand-in that follows the table', async (check, args) => {
    expect(await judge(check, args)).toEqual([]);
  });

  it('served fails a success status the table does not list', async () => {
    expect(await judge('served', { operation: 'health' }, { handlers: { health: () => ({ status: 202, body: { status: 'ok' } }) } })).toEqual([
      'health (GET /health) answered 202; the table lists 200 for success',
    ]);
  });

  it('schema fails an answer whose body breaks its schema', async () => {
    const found = await judge('schema', { operation: 'getNote' }, { handlers: { getNote: (r) => ({ status: 200, body: { id: r.params['note_id'] } }) } });
    expect(found[0]).toMatch(/^\S.* lacks title.* \(getNote answered 200 with a body that breaks schema notes\/note\)$/);
  });

  it('wrongMethod fails a refusal with another status than the table says', async () => {
    const strict = { ...notesTable(), wrongMethodStatus: 400 };
    expect(await judge('wrongMethod', { operation: 'listNotes' }, {}, strict)).toEqual(['PUT /notes (the table lists GET, POST) answered 405; expected 400']);
  });

  it('authRequired fails a service that takes any credential', async () => {
    expect(await judge('authRequired', { operation: 'listTags' }, { credential: undefined })).toEqual([
      'listTags with a credential the target never issued answered 200; expected 401',
    ]);
  });

  it('pagingDefault, pagingWalk and batch fail pages and batches that break the table', async () => {
    const all = (): { status: number; body: unknown } => ({ status: 200, body: { items: Array.from({ length: 30 }, (_x, i) => ({ id: `x${i}` })), next_cursor: null } });
    expect((await judge('pagingDefault', { operation: 'listNotes' }, { handlers: { listNotes: all } }))[0]).toMatch(/answered 30 items; the default page size is 20/);
    await s?.stop();
    const again = (): { status: number; body: unknown } => ({ status: 200, body: { items: [{ id: 'same' }, { id: 'same' }], next_cursor: null } });
    const walk = await judge('pagingWalk', { operation: 'listNotes' }, { handlers: { listNotes: again } });
    expect(walk[0]).toMatch(/returned 1 item\(s\) more than once: same/);
    expect(walk[1]).toMatch(/never returned 7 item\(s\) just created/);
    await s?.stop();
    const one = (): { status: number; body: unknown } => ({ status: 200, body: { results: [{ id: 'a', status: 201 }] } });
    const batch = await judge('batch', { operation: 'batchCreateNotes' }, { handlers: { batchCreateNotes: one } });
    expect(batch).toEqual(['batchCreateNotes with 3 items answered 1 results; expected one per item', 'batchCreateNotes with 11 items (above the maximum 10) answered 200; expected 400']);
  });

  it('sequence fails a service that forgets updates, with the step that shows it', async () => {
    const found = await judge('sequence', { resource: 'note' }, {
      handlers: {
        updateNote: (r) =>
          r.params['note_id']?.startsWith('specgate-missing') ? { status: 404, body: { error: 'none' } } : { status: 200, body: { id: r.params['note_id'], title: 'unchanged', body: '' } },
      },
    });
    expect(found[0]).toMatch(/^step \d+ of \d+ \(update #\d+\): updateNote answered a note that differs from the model/);
  });
});
