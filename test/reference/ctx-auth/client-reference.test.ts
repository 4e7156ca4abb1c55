import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { REFERENCE_BEHAVIOUR } from '../../../reference/ctx-auth/client/behaviour.js';
import { referenceCtxClientCommand, referenceCtxClientScript } from '../../../reference/ctx-auth/client/command.js';
import { ctxClientEnvVars, readCtxClientEnv } from '../../../reference/ctx-auth/client/contract.js';
import { runCtxClient } from '../../../reference/ctx-auth/client/run.js';
import { oauthError, type Handler } from '../../../reference/ctx-auth/server/answers.js';
import { startCtxServer, type CtxServerOptions, type RunningCtxServer } from '../../../reference/ctx-auth/server/server.js';
import { RealClock } from '../../../src/engine/clock.js';
import { clientRuns, everyScenario, expectBearerSession, expectOneCodeExchange, expectPkceAuthorization, expectRefreshChain, expectRegistrationUsed } from '../../helpers/ctx-client-runs.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { CTX_SCENARIOS, PRECONFIGURED, find, form, grants, json, param, redirectParams, rpcMethod, s256, trail } from '../../fixtures/ctx-auth/peers/run-client.js';

/**
 * The reference ctx-auth client (reference/ctx-auth/client), run as a process against the
 * reference server in each client-side scenario of the suite; every assertion reads what the
 * played server received, as the suite's judges do.
 */
const built = requirePeer('the compiled reference ctx-auth client', existsSync(referenceCtxClientScript()), 'npm run build');
declarePeer(built);

const METADATA = 'GET /.well-known/oauth-authorization-server';
const CALLS_OK = ['POST /ctx 200', 'POST /ctx 200', 'POST /ctx 200'];

describe.skipIf(built.skip)('the reference ctx-auth client in the six client-side scenarios', () => {
  const run = clientRuns(referenceCtxClientCommand(), everyScenario(), 120_000);

  describe('standard', () => {
    it('starts the flow on the 401: discovery at the root, registration, authorization, token, then three calls', () => {
      const r = run('standard');
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.serverUrl).toMatch(/\/ctx$/);
      expect(trail(r)).toEqual(['POST /ctx 401', `${METADATA} 200`, 'POST /register 201', 'GET /authorize 302', 'POST /token 200', ...CALLS_OK]);
      expect(find(r, 'POST', '/ctx').map(rpcMethod)).toEqual(['initialize', 'initialize', 'ping', 'ping']);
    });

    it('sends the protocol version, date form, in metadata discovery', () => {
      const [meta] = find(run('standard'), 'GET', '/.well-known/oauth-authorization-server');
      expect(meta?.headers['ctx-protocol-version']).toBe('2025-03-26');
    });

    it('registers a public client by JSON with the redirect URI it then uses', () => {
      const { reg, authz } = expectRegistrationUsed(run('standard'));
      expect(json(reg.body)).toMatchObject({ token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
      expect(param(authz, 'redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    });

    it('asks for a code with an S256 challenge, a random state and the scope', () => {
      const [authz] = find(run('standard'), 'GET', '/authorize');
      if (!authz) throw new Error('no authorization request');
      expectPkceAuthorization(authz);
    });

    it('exchanges the code once, with the same redirect_uri, its client_id and the verifier of the challenge', () => {
      const { tok, form: f } = expectOneCodeExchange(run('standard'));
      expect(tok.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(f.get('code_verifier') ?? '').toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    });

    it('sends every call after the token with it as Bearer, never in a query, and echoes the session header', () => {
      const r = run('standard');
      const { first, later, session } = expectBearerSession(r);
      expect(first?.headers['authorization']).toBeUndefined();
      for (const o of find(r, 'POST', '/ctx')) expect(o.headers['accept']).toBe('application/json, text/event-stream');
      expect(session).toMatch(/\S/);
      expect(later[0]?.headers['ctx-session-id']).toBeUndefined();
    });
  });

  it('custom-paths: uses the advertised /oauth2/ endpoints, never the default paths', () => {
    const r = run('custom-paths');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual(['POST /ctx 401', `${METADATA} 200`, 'POST /oauth2/register 201', 'GET /oauth2/authorize 302', 'POST /oauth2/token 200', ...CALLS_OK]);
  });

  it('no-metadata: after the 404 uses /register, /authorize and /token at the root', () => {
    const r = run('no-metadata');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual(['POST /ctx 401', `${METADATA} 404`, 'POST /register 201', 'GET /authorize 302', 'POST /token 200', ...CALLS_OK]);
  });

  it('no-registration: registers nothing and uses the client ID and redirect URI it was given', () => {
    const r = run('no-registration');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual(['POST /ctx 401', `${METADATA} 200`, 'GET /authorize 302', 'POST /token 200', ...CALLS_OK]);
    const [authz] = find(r, 'GET', '/authorize');
    const [tok] = grants(r, 'authorization_code');
    if (!authz || !tok) throw new Error('no authorization or token request');
    expect(param(authz, 'client_id')).toBe(PRECONFIGURED.clientId);
    expect(param(authz, 'redirect_uri')).toBe(PRECONFIGURED.redirectUri);
    expect(form(tok).get('client_id')).toBe(PRECONFIGURED.clientId);
    expect(form(tok).get('redirect_uri')).toBe(PRECONFIGURED.redirectUri);
  });

  it('mid-session-expiry: each refused call is followed by a refresh with the latest refresh token and retried with the new token', () => {
    const r = run('mid-session-expiry');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual([
      'POST /ctx 401', `${METADATA} 200`, 'POST /register 201', 'GET /authorize 302', 'POST /token 200',
      'POST /ctx 200', 'POST /ctx 401', 'POST /token 200', 'POST /ctx 200', 'POST /ctx 401', 'POST /token 200', 'POST /ctx 200',
    ]);
    for (const refresh of expectRefreshChain(r)) {
      const refused = r.observations.find((o) => o.seq === refresh.seq - 1);
      const retry = r.observations.find((o) => o.seq === refresh.seq + 1);
      expect(refused?.status).toBe(401);
      expect(retry && json(retry.body)['id']).toBe(refused && json(refused.body)['id']);
      expect(retry?.headers['ctx-session-id']).toBe(refused?.headers['ctx-session-id']);
    }
  });

  it('wrong-state: stops with status 3 and a state mismatch message, and never exchanges the code', () => {
    const r = run('wrong-state');
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^state mismatch: .*the code is not exchanged/);
    expect(trail(r)).toEqual(['POST /ctx 401', `${METADATA} 200`, 'POST /register 201', 'GET /authorize 302']);
    const [authz] = find(r, 'GET', '/authorize');
    if (!authz) throw new Error('no authorization request');
    expect(redirectParams(authz).get('state')).not.toBe(param(authz, 'state'));
  });

  it('draws a new PKCE pair and state for every authorization request', () => {
    const authz = CTX_SCENARIOS.flatMap((s) => find(run(s), 'GET', '/authorize').concat(find(run(s), 'GET', '/oauth2/authorize')));
    expect(authz).toHaveLength(CTX_SCENARIOS.length);
    expect(new Set(authz.map((o) => param(o, 'code_challenge'))).size).toBe(authz.length);
    expect(new Set(authz.map((o) => param(o, 'state'))).size).toBe(authz.length);
  });
});

/** Runs the client in this process against a server with `opts`; returns the server (stopped) to read. */
async function inProcess(opts: Omit<CtxServerOptions, 'clock'>): Promise<RunningCtxServer> {
  const server = await startCtxServer({ clock: new RealClock(), ...opts });
  try {
    await runCtxClient(readCtxClientEnv(ctxClientEnvVars({ serverUrl: server.serverUrl, calls: 3, scope: 'ctx' })), REFERENCE_BEHAVIOUR);
  } finally {
    await server.stop();
  }
  return server;
}

/** The token endpoint with its answers changed by `change` (the reference server's override hook). */
function tokenOverride(change: (grant: string | null, reference: Handler) => Handler | undefined): CtxServerOptions['override'] {
  return (id, reference) => (id !== 'token' ? reference : (call, ctx) => (change(new URLSearchParams(call.body).get('grant_type'), reference) ?? reference)(call, ctx));
}

describe('the reference ctx-auth client without a usable refresh token', () => {
  it('runs the whole authorization again, with a new PKCE pair, when no refresh token was issued', async () => {
    const withoutRefresh = (reference: Handler): Handler => async (call, ctx) => {
      const answer = await reference(call, ctx);
      if (answer.json !== null && typeof answer.json === 'object') delete (answer.json as Record<string, unknown>)['refresh_token'];
      return answer;
    };
    const server = await inProcess({ expireAfterCalls: 1, override: tokenOverride((_grant, reference) => withoutRefresh(reference)) });
    const obs = server.observations();
    const authz = obs.filter((o) => o.path === '/authorize');
    expect(obs.map((o) => `${o.method} ${o.path} ${o.status}`)).toEqual([
      'POST /ctx 401', `${METADATA} 200`, 'POST /register 201', 'GET /authorize 302', 'POST /token 200',
      'POST /ctx 200', 'POST /ctx 401', 'GET /authorize 302', 'POST /token 200', 'POST /ctx 200', 'POST /ctx 401', 'GET /authorize 302', 'POST /token 200', 'POST /ctx 200',
    ]);
    expect(new Set(authz.map((o) => o.query['code_challenge']?.[0])).size).toBe(3);
    const verifiers = obs.filter((o) => o.path === '/token').map((o) => new URLSearchParams(o.body).get('code_verifier') ?? '');
    expect(verifiers.map(s256)).toEqual(authz.map((o) => o.query['code_challenge']?.[0]));
  });

  it('runs the authorization again when the refresh is refused', async () => {
    const refuse: Handler = () => oauthError(400, 'invalid_grant', 'refresh tokens are refused here');
    const server = await inProcess({ expireAfterCalls: 2, override: tokenOverride((grant) => (grant === 'refresh_token' ? refuse : undefined)) });
    expect(server.observations().map((o) => `${o.method} ${o.path} ${o.status}`)).toEqual([
      'POST /ctx 401', `${METADATA} 200`, 'POST /register 201', 'GET /authorize 302', 'POST /token 200',
      'POST /ctx 200', 'POST /ctx 200', 'POST /ctx 401', 'POST /token 400', 'GET /authorize 302', 'POST /token 200', 'POST /ctx 200',
    ]);
  });
});

describe.skipIf(built.skip)('the reference ctx-auth client as a process, when things go wrong', () => {
  it('exits 2 naming the variable when the contract is not followed', async () => {
    const { spawnSync } = await import('node:child_process');
    const [exe, ...args] = referenceCtxClientCommand();
    const r = spawnSync(exe ?? process.execPath, args, { env: { PATH: process.env['PATH'] ?? '' }, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/SPECGATE_CTX_SERVER_URL is not set/);
  });

  it('gives up on a server that never answers after 10 s, exiting 1 and naming the request', async () => {
    // accepts connections and never answers; its sockets are ended below
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const { spawn } = await import('node:child_process');
      const [exe, ...args] = referenceCtxClientCommand();
      const started = Date.now();
      const child = spawn(exe ?? process.execPath, args, { env: { PATH: process.env['PATH'] ?? '', SPECGATE_CTX_SERVER_URL: `http://127.0.0.1:${port}/ctx` } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(1);
      expect(stderr).toMatch(new RegExp(`^resource call initialize: POST http://127\\.0\\.0\\.1:${port}/ctx did not answer within 10 s`));
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);
});
