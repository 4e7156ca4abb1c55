import { describe, expect, it } from 'vitest';
import { referenceCtxClientCommand, referenceCtxClientScript } from '../../../reference/ctx-auth/client/command.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { CLIENT_JUDGES } from '../../../suites/ctx-auth/checks/client-judges.js';
import { NEUTRAL_SESSION_HEADER, NEUTRAL_VERSION_HEADER, runScenario, targetHeaderName } from '../../../suites/ctx-auth/checks/client-run.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';

/**
 * One launch of a client in a played scenario (suites/ctx-auth/checks/client-run.ts): a client
 * still running when its budget ends is stopped by the harness and judged on what it sent, and
 * a client is told, and judged on, the header names of the target profile.
 */
/** Long enough for a Node process to start and send its request on a loaded machine. */
const BUDGET_MS = 6000;

/** Sends the first call without a token, says how it was answered, then never ends on its own. */
const SEND_ONE_THEN_SLEEP = `
fetch(process.env.SPECGATE_CTX_SERVER_URL, {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }),
}).then((res) => process.stdout.write('initialize ' + res.status + '\\n'));
setInterval(() => undefined, 60000);
`;

const contextWith = (more: Record<string, unknown> = {}): CheckContext => ({ signal: new AbortController().signal, ...more }) as unknown as CheckContext;

describe('a ctx client that hangs past its budget', () => {
  it('is stopped by the harness after the budget and judged on the one request it sent', async () => {
    const started = Date.now();
    const run = await runScenario(contextWith(), 'standard', { command: [process.execPath, '-e', SEND_ONE_THEN_SLEEP], versionHeader: NEUTRAL_VERSION_HEADER, sessionHeader: NEUTRAL_SESSION_HEADER, budgetMs: BUDGET_MS });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(BUDGET_MS);
    expect(took).toBeLessThan(BUDGET_MS + 10_000);

    expect(run.end.stopped).toBe(true);
    expect(run.end.summary).toMatch(/^ctx client \(standard scenario\) .* -> stopped by the harness$/s);
    expect(run.requests.map((r) => `#${r.n} ${r.method} ${r.path} -> ${r.status}`)).toEqual(['#1 POST /ctx -> 401']);
    expect(run.told.serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ctx$/);

    expect(CLIENT_JUDGES['CTX-CLI-401-STARTS-FLOW']?.({ runs: [run], revision: '2025-03-26' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^request #1 POST \/ctx was answered 401 .* and the client started no authorization after it \(it sent nothing more\) \(the client was stopped by the harness after 6 s in the standard scenario, and judged on what it had sent\)$/),
    });
  }, 30_000);
});

describe('header names of the target profile', () => {
  it('are taken from the context, which keeps the neutral names a profile does not map', () => {
    const mcp: Record<string, string> = { 'ctx-protocol-version': 'MCP-Protocol-Version', 'ctx-session-id': 'Mcp-Session-Id' };
    const named = contextWith({ headerName: (neutral: string) => mcp[neutral.toLowerCase()] ?? neutral });
    expect(targetHeaderName(named, NEUTRAL_VERSION_HEADER)).toBe('MCP-Protocol-Version');
    expect(targetHeaderName(named, NEUTRAL_SESSION_HEADER)).toBe('Mcp-Session-Id');
    expect(targetHeaderName(contextWith({ headerName: (neutral: string) => neutral }), NEUTRAL_VERSION_HEADER)).toBe('CTX-Protocol-Version');
  });

  const built = builtSpecgate(referenceCtxClientScript());
  declarePeer(built);

  it.skipIf(built.skip)('tell the client which names to send, and the played server answers the session header by that name', async () => {
    const run = await runScenario(contextWith(), 'standard', { command: referenceCtxClientCommand(), versionHeader: 'MCP-Protocol-Version', sessionHeader: 'Mcp-Session-Id', budgetMs: 20_000 });
    expect(run.end.summary).toMatch(/-> exit status 0$/);
    const discovery = run.requests.find((r) => r.path === '/.well-known/oauth-authorization-server');
    expect(discovery?.headers['mcp-protocol-version']).toBe('2025-03-26');
    expect(discovery?.headers['ctx-protocol-version']).toBeUndefined();
    const calls = run.requests.filter((r) => r.path === '/ctx' && r.status === 200);
    expect(calls.length).toBe(3);
    const session = calls[0]?.answerHeaders['mcp-session-id'];
    expect(session).toBeTruthy();
    expect(calls.slice(1).map((r) => r.headers['mcp-session-id'])).toEqual([session, session]);
    expect(CLIENT_JUDGES['CTX-CLI-VERSION-HEADER']?.({ runs: [run], revision: '2025-03-26' })).toEqual({ ok: true, observed: 1 });
  }, 30_000);
});
