/**
 * What the ctx-auth reference server issues during a run (authorization codes, access and
 * refresh tokens, the secret and registration access token of a registered client) shows in no
 * report, though failing cases quote the very answers that issued them. The server carries two
 * planted faults, noting every credential it issues: its token answers say token_type "mac"
 * (token-response-shape fails on the token answer), and it registers the probe client with 200
 * instead of 201, issuing it a secret and a registration access token
 * (registration-valid-metadata fails on the registration answer).
 */
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { run } from '../../../src/engine/run.js';
import { createConsoleReporter } from '../../../src/reporting/console.js';
import { renderHtml } from '../../../src/reporting/html.js';
import { renderJson } from '../../../src/reporting/json.js';
import { renderJUnit } from '../../../src/reporting/junit.js';
import { renderTap } from '../../../src/reporting/tap.js';
import { afterwards, locationOf, mapJson, overriding, record, succeeded, type CtxFault } from '../../fixtures/ctx-auth/faults/fault-kit.js';
import { faultModule } from './run-ctx.js';
import { FAULT_SEED } from './run-faults.js';

const issued = new Set<string>();
const note = (v: unknown): void => {
  if (typeof v === 'string' && v !== '') issued.add(v);
};

const fault: CtxFault = {
  description: 'token answers say token_type "mac"; the probe client is registered with 200 and given a secret and a registration access token',
  requirement: 'CTX-SRV-TOKEN-RESPONSE',
  options: () =>
    overriding({
      authorize: afterwards((answer) => {
        note(locationOf(answer)?.searchParams.get('code'));
        return answer;
      }),
      token: afterwards((answer) => {
        const body = record(answer.json);
        for (const field of ['access_token', 'refresh_token', 'id_token']) note(body[field]);
        return succeeded(answer) ? mapJson(answer, (b) => ({ ...b, token_type: 'mac' })) : answer;
      }),
      register: afterwards((answer, call) => {
        if (!succeeded(answer) || !call.body?.includes('specgate registration probe')) return answer;
        const n = issued.size;
        const granted = { client_secret: `cs-${n}-9f86d081884c7d659a2feaa0c55ad015`, registration_access_token: `rat-${n}-a3b5c7d9e1f3a5b7c9d1` };
        note(granted.client_secret);
        note(granted.registration_access_token);
        return { ...mapJson(answer, (b) => ({ ...b, ...granted })), status: 200 };
      }),
    }),
};

describe('credentials the ctx-auth server issued during the run', () => {
  let result: RunResult;
  let outputs: Record<string, string>;

  beforeAll(async () => {
    const stream = new PassThrough();
    let printed = '';
    stream.setEncoding('utf8').on('data', (d: string) => (printed += d));
    const console = createConsoleReporter({ stream, verbose: true });
    result = await run({
      modules: [faultModule('issued-credentials', fault)],
      suites: ['ctx-auth'],
      targets: {},
      sides: { 'ctx-auth': 'server' },
      seed: FAULT_SEED,
      cases: ['token-response-shape', 'registration-valid-metadata'],
      sinks: [(e) => console.onEvent(e)],
    });
    await console.finish();
    outputs = { console: printed, 'JSON report': renderJson(result), 'HTML report': renderHtml(result), 'JUnit report': renderJUnit(result), 'TAP report': renderTap(result) };
  }, 60_000);

  it('fails both cases on the answers that issued them, and keeps those answers for the report', () => {
    const cases = result.suites.flatMap((s) => s.cases);
    expect(Object.fromEntries(cases.map((c) => [c.id, c.outcome]))).toEqual({ 'token-response-shape': 'failed', 'registration-valid-metadata': 'failed' });
    // not vacuous: the server issued each kind, and the reports show the exchanges, masked
    expect(issued.size).toBeGreaterThanOrEqual(4);
    expect(outputs['JSON report']).toMatch(/\\"access_token\\":\\"\*\*\*\\"/);
    expect(outputs['JSON report']).toMatch(/\\"client_secret\\":\\"\*\*\*\\"/);
    expect(outputs['JSON report']).toContain('\\"token_type\\":\\"mac\\"');
  });

  it('shows none of them in any report or on the console', () => {
    const leaks = [...issued].flatMap((value) => Object.entries(outputs).filter(([, text]) => text.includes(value)).map(([name]) => `${name}: ${value}`));
    expect(leaks).toEqual([]);
  });
});
