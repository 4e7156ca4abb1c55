import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { isSpecgateError } from '../../../src/errors.js';
import { jsonAnswer } from '../../../reference/ctx-auth/server/answers.js';
import { CTX_HANDLERS } from '../../../reference/ctx-auth/server/handlers/index.js';
import { CTX_ROUTE_IDS, ctxRoutes } from '../../../reference/ctx-auth/server/routes.js';
import { FALLBACK_PATHS } from '../../../reference/ctx-auth/model/metadata.js';
import { startCtxServer, type CtxServerOptions, type RunningCtxServer } from '../../../reference/ctx-auth/server/server.js';
import { call, callResource, codeFor, exchange, PUBLIC_REDIRECT, tokensFor, VERIFIER, authorize } from './http-helpers.js';

const running: RunningCtxServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function start(opts: Partial<CtxServerOptions> = {}): Promise<RunningCtxServer> {
  const s = await startCtxServer({ clock: new VirtualClock(Date.UTC(2026, 0, 1)), ...opts });
  running.push(s);
  return s;
}

const rootEnds = (s: RunningCtxServer) => ({ authorize: `${s.origin}/authorize`, token: `${s.origin}/token` });

describe('ctx-auth reference modes: metadata and registration', () => {
  it('without metadata: the document is 404 JSON and the fallbacks serve the flow', async () => {
    const s = await start({ metadata: false });
    const doc = await call(`${s.origin}/.well-known/oauth-authorization-server`);
    expect(doc.status).toBe(404);
    expect(doc.headers['content-type']).toMatch(/^application\/json/);
    const t = await tokensFor(rootEnds(s));
    expect(t.status, t.text).toBe(200);
    const reg = await call(`${s.origin}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://localhost:5/cb'], token_endpoint_auth_method: 'none' }) });
    expect(reg.status).toBe(201);
  });

  it('without registration: /register is 404 and not advertised; the preconfigured client works', async () => {
    const s = await start({ registration: false });
    const doc = await call(`${s.origin}/.well-known/oauth-authorization-server`);
    expect(doc.json['registration_endpoint']).toBeUndefined();
    expect(doc.json['authorization_endpoint']).toBe(`${s.origin}/authorize`);
    const reg = await call(`${s.origin}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://localhost:5/cb'] }) });
    expect(reg.status).toBe(404);
    expect((await tokensFor(rootEnds(s))).status).toBe(200);
  });

  it('customPaths: advertised under /oauth2/, served only there', async () => {
    const s = await start({ customPaths: true });
    const doc = await call(`${s.origin}/.well-known/oauth-authorization-server`);
    expect(doc.json).toMatchObject({
      authorization_endpoint: `${s.origin}/oauth2/authorize`,
      token_endpoint: `${s.origin}/oauth2/token`,
      registration_endpoint: `${s.origin}/oauth2/register`,
    });
    expect(s.paths).toEqual({ authorize: '/oauth2/authorize', token: '/oauth2/token', register: '/oauth2/register' });
    const t = await tokensFor({ authorize: `${s.origin}/oauth2/authorize`, token: `${s.origin}/oauth2/token` });
    expect(t.status, t.text).toBe(200);
    expect((await authorize(`${s.origin}/authorize`)).got.status).toBe(404);
    expect((await exchange(`${s.origin}/token`, { grant_type: 'client_credentials' })).status).toBe(404);
    expect((await call(`${s.origin}/register`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('customPaths without metadata is a configuration error', async () => {
    const e = await startCtxServer({ clock: new VirtualClock(), customPaths: true, metadata: false }).then(
      (s) => s.stop().then(() => undefined),
      (err: unknown) => err,
    );
    expect(isSpecgateError(e) && e.code).toBe('SG_CONFIG');
  });

  it('publicUrl names the issuer and endpoints; resourcePath moves the resource', async () => {
    const s = await start({ publicUrl: 'https://ctx.example/', resourcePath: '/api/ctx' });
    expect(s.issuer).toBe('https://ctx.example');
    expect(s.serverUrl).toBe('https://ctx.example/api/ctx');
    const doc = await call(`${s.origin}/.well-known/oauth-authorization-server`);
    expect(doc.json).toMatchObject({ issuer: 'https://ctx.example', token_endpoint: 'https://ctx.example/token' });
    expect((await callResource(`${s.origin}/api/ctx`, undefined)).status).toBe(401);
    expect((await callResource(`${s.origin}/ctx`, undefined)).status).toBe(404);
  });
});

describe('ctx-auth reference modes: time and the client-side scenarios', () => {
  it('a token expires after expires_in on the server clock', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const s = await start({ clock, accessTokenTtlSeconds: 120 });
    const t = await tokensFor(rootEnds(s));
    expect(t.json['expires_in']).toBe(120);
    const token = String(t.json['access_token']);
    await clock.advance(119_000);
    expect((await callResource(s.serverUrl, token)).status).toBe(200);
    await clock.advance(1_000);
    const late = await callResource(s.serverUrl, token);
    expect(late.status).toBe(401);
    expect(late.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(late.json['error_description']).toMatch(/expired/);
  });

  it('an authorization code expires after codeTtlSeconds', async () => {
    const clock = new VirtualClock();
    const s = await start({ clock, codeTtlSeconds: 5 });
    const code = await codeFor(`${s.origin}/authorize`);
    await clock.advance(5_000);
    const got = await exchange(`${s.origin}/token`, { grant_type: 'authorization_code', code, code_verifier: VERIFIER, client_id: 'sg-ctx-public', redirect_uri: PUBLIC_REDIRECT });
    expect(got.status).toBe(400);
    expect(got.json['error']).toBe('invalid_grant');
  });

  it('expireAfterCalls: the token is refused after N successful calls; a refreshed one works again', async () => {
    const s = await start({ expireAfterCalls: 1 });
    const t = await tokensFor(rootEnds(s));
    const token = String(t.json['access_token']);
    const first = await callResource(s.serverUrl, token);
    expect(first.status).toBe(200);
    const second = await callResource(s.serverUrl, token, { headers: { 'ctx-session-id': first.headers['ctx-session-id'] ?? '' }, body: { jsonrpc: '2.0', id: 2, method: 'ping' } });
    expect(second.status).toBe(401);
    expect(second.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    const refreshed = await exchange(`${s.origin}/token`, { grant_type: 'refresh_token', refresh_token: String(t.json['refresh_token']), client_id: 'sg-ctx-public' });
    expect(refreshed.status).toBe(200);
    expect((await callResource(s.serverUrl, String(refreshed.json['access_token']), { body: { jsonrpc: '2.0', id: 3, method: 'ping' } })).status).toBe(200);
  });

  it('wrongState: the code comes back with a state other than the one sent', async () => {
    const s = await start({ wrongState: true });
    const a = await authorize(`${s.origin}/authorize`, { state: 'mine' });
    expect(a.got.status).toBe(302);
    expect(a.params.get('code')).not.toBeNull();
    expect(a.params.get('state')).not.toBe('mine');
    expect(a.params.get('state')).not.toBeNull();
    // the code itself is good: a client that exchanges it anyway gets a token (the judges see that)
    const t = await exchange(`${s.origin}/token`, { grant_type: 'authorization_code', code: a.params.get('code') ?? '', code_verifier: VERIFIER, client_id: 'sg-ctx-public', redirect_uri: PUBLIC_REDIRECT });
    expect(t.status).toBe(200);
  });

  it('without wrongState the state is echoed unchanged', async () => {
    const s = await start();
    expect((await authorize(`${s.origin}/authorize`, { state: 'a b+c/=' })).params.get('state')).toBe('a b+c/=');
  });
});

describe('ctx-auth reference modes: hooks', () => {
  it('every route ID has a handler; the default table uses them all but the delegation callback, a delegating one all', () => {
    expect(Object.keys(CTX_HANDLERS).sort()).toEqual([...CTX_ROUTE_IDS].sort());
    const table = ctxRoutes({ metadata: true, registration: true, paths: FALLBACK_PATHS, resourcePath: '/ctx' });
    expect(table.map((r) => r.id).sort()).toEqual(CTX_ROUTE_IDS.filter((id) => id !== 'delegation-callback').sort());
    const delegating = ctxRoutes({ metadata: true, registration: true, paths: FALLBACK_PATHS, resourcePath: '/ctx', delegating: true });
    expect(delegating.map((r) => r.id).sort()).toEqual([...CTX_ROUTE_IDS].sort());
  });

  it('headerNames renames the session header', async () => {
    const s = await start({ headerNames: { session: 'Mcp-Session-Id' } });
    const token = String((await tokensFor(rootEnds(s))).json['access_token']);
    const got = await callResource(s.serverUrl, token);
    expect(got.headers['mcp-session-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(got.headers['ctx-session-id']).toBeUndefined();
    // a call that already names a session gets none
    const again = await callResource(s.serverUrl, token, { headers: { 'Mcp-Session-Id': got.headers['mcp-session-id'] ?? '' } });
    expect(again.headers['mcp-session-id']).toBeUndefined();
  });

  it('override replaces one endpoint and keeps the others; observations still record it', async () => {
    const seen: string[] = [];
    const s = await start({
      override: (id, reference) => {
        seen.push(id);
        return id === 'metadata' ? () => jsonAnswer(200, { issuer: 'http://wrong.example' }) : reference;
      },
    });
    expect(seen.sort()).toEqual(['authorize', 'delegation-callback', 'metadata', 'register', 'resource', 'token']);
    expect((await call(`${s.origin}/.well-known/oauth-authorization-server`)).json).toEqual({ issuer: 'http://wrong.example' });
    expect((await tokensFor(rootEnds(s))).status).toBe(200);
    expect(s.observations()[0]?.responseBody).toBe('{"issuer":"http://wrong.example"}');
  });

  it('routes changes the table (an endpoint moved off the root)', async () => {
    const s = await start({ routes: (routes) => routes.map((r) => (r.id === 'token' ? { ...r, path: '/ctx/token' } : r)) });
    const code = await codeFor(`${s.origin}/authorize`);
    const fields = { grant_type: 'authorization_code', code, code_verifier: VERIFIER, client_id: 'sg-ctx-public', redirect_uri: PUBLIC_REDIRECT };
    expect((await exchange(`${s.origin}/token`, fields)).status).toBe(404);
    expect((await exchange(`${s.origin}/ctx/token`, fields)).status).toBe(200);
  });

  it('the clock hook and observations are served only with hooks, and never recorded', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const plain = await start({ clock });
    expect((await call(`${plain.origin}/__specgate/clock`)).status).toBe(404);
    const s = await start({ clock, hooks: true, accessTokenTtlSeconds: 60 });
    const token = String((await tokensFor(rootEnds(s))).json['access_token']);
    const moved = await call(`${s.origin}/__specgate/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 60 }) });
    expect(moved.json).toEqual({ now: Date.UTC(2026, 0, 1) + 60_000 });
    expect((await callResource(s.serverUrl, token)).status).toBe(401);
    const log = await call(`${s.origin}/__specgate/observations`);
    const paths = (JSON.parse(log.text) as { path: string }[]).map((o) => o.path);
    expect(paths).toEqual(['/authorize', '/token', '/ctx']);
  });
});
