import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { startCtxServer, type RunningCtxServer } from '../../../reference/ctx-auth/server/server.js';
import { authorize, basic, call, callResource, CHALLENGE, codeFor, CONFIDENTIAL_REDIRECT, exchange, FORM_TYPE, form, INITIALIZE, PUBLIC_REDIRECT, tokensFor, VERIFIER, type Got } from './http-helpers.js';

let server: RunningCtxServer;
let ends: { authorize: string; token: string; register: string };

beforeAll(async () => {
  server = await startCtxServer({ clock: new VirtualClock(Date.UTC(2026, 0, 1)) });
  ends = { authorize: `${server.origin}/authorize`, token: `${server.origin}/token`, register: `${server.origin}/register` };
});
afterAll(() => server.stop());

const codeExchange = (code: string, extra: Record<string, string> = {}): Promise<Got> =>
  exchange(ends.token, { grant_type: 'authorization_code', code, code_verifier: VERIFIER, client_id: 'sg-ctx-public', redirect_uri: PUBLIC_REDIRECT, ...extra });

function expectTokenError(got: Got, status: number, error: string): void {
  expect(got.status, got.text).toBe(status);
  expect(got.json['error']).toBe(error);
  expect(typeof got.json['error_description']).toBe('string');
  expect(got.headers['cache-control']).toBe('no-store');
  expect(got.headers['content-type']).toMatch(/^application\/json/);
}

describe('ctx-auth reference server: metadata (RFC 8414)', () => {
  it('publishes the document at the root, issuer the origin without a path', async () => {
    const got = await call(`${server.origin}/.well-known/oauth-authorization-server`);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toMatch(/^application\/json/);
    expect(got.json).toEqual({
      issuer: server.origin,
      authorization_endpoint: `${server.origin}/authorize`,
      token_endpoint: `${server.origin}/token`,
      registration_endpoint: `${server.origin}/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      scopes_supported: ['ctx', 'profile'],
    });
    expect(server.serverUrl).toBe(`${server.origin}/ctx`);
  });

  it.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server/ctx', '/.well-known/openid-configuration', '/ctx/.well-known/oauth-authorization-server'])('%s is 404', async (path) => {
    const got = await call(`${server.origin}${path}`);
    expect(got.status).toBe(404);
    expect(got.json['error']).toBe('not_found');
  });
});

describe('ctx-auth reference server: the authorization code flow with S256', () => {
  it('authorize -> token -> resource 200 with a session header, every later call still needs the token', async () => {
    const a = await authorize(ends.authorize);
    expect(a.got.status).toBe(302);
    expect(`${a.location?.origin}${a.location?.pathname}`).toBe(PUBLIC_REDIRECT);
    expect(a.params.get('state')).toBe('st-123');
    const code = a.params.get('code') ?? '';
    expect(code).not.toBe('');

    const t = await codeExchange(code);
    expect(t.status, t.text).toBe(200);
    expect(t.headers['cache-control']).toBe('no-store');
    expect(t.headers['pragma']).toBe('no-cache');
    expect(t.json).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.any(String), scope: 'ctx' });
    const token = String(t.json['access_token']);

    const first = await callResource(server.serverUrl, token);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-03-26' } });
    const session = first.headers['ctx-session-id'];
    expect(session).toMatch(/^[0-9a-f]{32}$/);

    const later = await callResource(server.serverUrl, token, { headers: { 'ctx-session-id': session ?? '' }, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
    expect(later.status).toBe(200);
    expect(later.json).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
    expect(later.headers['ctx-session-id']).toBeUndefined();

    const without = await callResource(server.serverUrl, undefined, { headers: { 'ctx-session-id': session ?? '' }, body: { jsonrpc: '2.0', id: 3, method: 'tools/list' } });
    expect(without.status).toBe(401);
    expect(without.headers['www-authenticate']).toBe('Bearer realm="ctx"');
  });

  it('a notification is accepted with 202 and no body', async () => {
    const token = String((await tokensFor(ends)).json['access_token']);
    const got = await callResource(server.serverUrl, token, { body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    expect(got.status).toBe(202);
    expect(got.text).toBe('');
  });

  it('the redirect URI may be omitted for a client with exactly one (the confidential client)', async () => {
    const a = await authorize(ends.authorize, { client_id: 'sg-ctx-confidential', redirect_uri: undefined });
    expect(a.got.status).toBe(302);
    expect(`${a.location?.origin}${a.location?.pathname}`).toBe(CONFIDENTIAL_REDIRECT);
    const t = await exchange(ends.token, { grant_type: 'authorization_code', code: a.params.get('code') ?? '', code_verifier: VERIFIER }, basic('sg-ctx-confidential', 'sg-ctx-confidential-secret'));
    expect(t.status, t.text).toBe(200);
  });
});

describe('ctx-auth reference server: authorization refusals', () => {
  it.each([
    ['no code_challenge', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
    ['plain', { code_challenge: VERIFIER, code_challenge_method: 'plain' }, 'invalid_request'],
    ['a challenge without its method', { code_challenge_method: undefined }, 'invalid_request'],
    ['a challenge of the wrong length', { code_challenge: CHALLENGE.slice(2) }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no response_type', { response_type: undefined }, 'invalid_request'],
    ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
  ])('%s: redirected with error= and the state, no code', async (_name, changes, error) => {
    const a = await authorize(ends.authorize, changes);
    expect(a.got.status).toBe(302);
    expect(`${a.location?.origin}${a.location?.pathname}`).toBe(PUBLIC_REDIRECT);
    expect(a.params.get('error')).toBe(error);
    expect(a.params.get('state')).toBe('st-123');
    expect(a.params.get('code')).toBeNull();
  });

  it.each([
    ['an unregistered redirect_uri', { redirect_uri: 'http://127.0.0.1:7777/elsewhere' }],
    ['a non-loopback http redirect_uri', { redirect_uri: 'http://example.com/callback' }],
    ['an unknown client_id', { client_id: 'nobody' }],
    ['no client_id', { client_id: undefined }],
    ['no redirect_uri for a client with two', { redirect_uri: undefined }],
  ])('%s: 400 JSON, never redirected', async (_name, changes) => {
    const a = await authorize(ends.authorize, changes);
    expect(a.got.status).toBe(400);
    expect(a.got.headers['location']).toBeUndefined();
    expect(a.got.json['error']).toBe('invalid_request');
    expect(typeof a.got.json['error_description']).toBe('string');
  });

  it('the state is left out of the redirect when none was sent', async () => {
    const a = await authorize(ends.authorize, { state: undefined });
    expect(a.params.get('code')).not.toBeNull();
    expect(a.params.has('state')).toBe(false);
  });
});

describe('ctx-auth reference server: token refusals', () => {
  it('a wrong or missing verifier gets no token, and leaves the code usable', async () => {
    const code = await codeFor(ends.authorize);
    expectTokenError(await codeExchange(code, { code_verifier: `${VERIFIER.slice(0, -1)}x` }), 400, 'invalid_grant');
    expectTokenError(await codeExchange(code, { code_verifier: 'short' }), 400, 'invalid_grant');
    expectTokenError(await codeExchange(code, { code_verifier: '' }), 400, 'invalid_request');
    expect((await codeExchange(code)).status).toBe(200);
  });

  it('a code is single use', async () => {
    const code = await codeFor(ends.authorize);
    expect((await codeExchange(code)).status).toBe(200);
    expectTokenError(await codeExchange(code), 400, 'invalid_grant');
  });

  it('a code is bound to its client', async () => {
    const code = await codeFor(ends.authorize);
    const other = await exchange(ends.token, { grant_type: 'authorization_code', code, code_verifier: VERIFIER, redirect_uri: PUBLIC_REDIRECT }, basic('sg-ctx-confidential', 'sg-ctx-confidential-secret'));
    expectTokenError(other, 400, 'invalid_grant');
  });

  it('the redirect_uri must repeat the authorization request', async () => {
    const code = await codeFor(ends.authorize);
    expectTokenError(await codeExchange(code, { redirect_uri: 'http://localhost:7777/callback' }), 400, 'invalid_grant');
    const withoutRedirect = { grant_type: 'authorization_code', code, code_verifier: VERIFIER, client_id: 'sg-ctx-public' };
    expectTokenError(await exchange(ends.token, withoutRedirect), 400, 'invalid_request');
    expect((await codeExchange(code)).status).toBe(200);
  });

  it('an unknown client is 401 invalid_client with WWW-Authenticate: Basic', async () => {
    const code = await codeFor(ends.authorize);
    const got = await codeExchange(code, { client_id: 'nobody' });
    expectTokenError(got, 401, 'invalid_client');
    expect(got.headers['www-authenticate']).toMatch(/^Basic /);
    const wrongSecret = await exchange(ends.token, { grant_type: 'client_credentials' }, basic('sg-ctx-confidential', 'wrong'));
    expectTokenError(wrongSecret, 401, 'invalid_client');
    expect(wrongSecret.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('grant_type missing or unknown, and a JSON body', async () => {
    expectTokenError(await exchange(ends.token, { client_id: 'sg-ctx-public' }), 400, 'invalid_request');
    expectTokenError(await exchange(ends.token, { grant_type: 'password', client_id: 'sg-ctx-public' }), 400, 'unsupported_grant_type');
    const json = await call(ends.token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials' }) });
    expectTokenError(json, 400, 'invalid_request');
  });

  it('GET on the token endpoint is 405 with Allow', async () => {
    const got = await call(ends.token);
    expect(got.status).toBe(405);
    expect(got.headers['allow']).toBe('POST');
  });
});

describe('ctx-auth reference server: refresh and client credentials', () => {
  it('refresh rotates: a new pair that works, the old refresh token refused', async () => {
    const first = await tokensFor(ends);
    const oldRefresh = String(first.json['refresh_token']);
    const refreshed = await exchange(ends.token, { grant_type: 'refresh_token', refresh_token: oldRefresh, client_id: 'sg-ctx-public' });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    expect(refreshed.json['refresh_token']).not.toBe(oldRefresh);
    expect(refreshed.json['access_token']).not.toBe(first.json['access_token']);
    expect((await callResource(server.serverUrl, String(refreshed.json['access_token']))).status).toBe(200);
    expectTokenError(await exchange(ends.token, { grant_type: 'refresh_token', refresh_token: oldRefresh, client_id: 'sg-ctx-public' }), 400, 'invalid_grant');
    const again = await exchange(ends.token, { grant_type: 'refresh_token', refresh_token: String(refreshed.json['refresh_token']), client_id: 'sg-ctx-public' });
    expect(again.status).toBe(200);
  });

  it('a refresh may narrow the scope, not widen it', async () => {
    const first = await tokensFor(ends, 'profile');
    const wider = await exchange(ends.token, { grant_type: 'refresh_token', refresh_token: String(first.json['refresh_token']), client_id: 'sg-ctx-public', scope: 'ctx profile' });
    expectTokenError(wider, 400, 'invalid_scope');
  });

  it('client_credentials for the confidential client (Basic and post), no refresh token', async () => {
    const viaBasic = await exchange(ends.token, { grant_type: 'client_credentials' }, basic('sg-ctx-confidential', 'sg-ctx-confidential-secret'));
    expect(viaBasic.status, viaBasic.text).toBe(200);
    expect(viaBasic.json).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'ctx' });
    const viaPost = await exchange(ends.token, { grant_type: 'client_credentials', client_id: 'sg-ctx-confidential', client_secret: 'sg-ctx-confidential-secret', scope: 'profile' });
    expect(viaPost.json['scope']).toBe('profile');
    expect((await callResource(server.serverUrl, String(viaBasic.json['access_token']))).status).toBe(200);
  });

  it('client_credentials is refused for the public client', async () => {
    expectTokenError(await exchange(ends.token, { grant_type: 'client_credentials', client_id: 'sg-ctx-public' }), 400, 'unauthorized_client');
  });
});

describe('ctx-auth reference server: the protected resource (RFC 6750)', () => {
  it('no token: 401 Bearer realm', async () => {
    const got = await callResource(server.serverUrl, undefined);
    expect(got.status).toBe(401);
    expect(got.headers['www-authenticate']).toBe('Bearer realm="ctx"');
  });

  it('an unknown token, an empty Bearer, another scheme', async () => {
    const unknown = await callResource(server.serverUrl, 'ctx_at_nothing');
    expect(unknown.status).toBe(401);
    expect(unknown.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    const empty = await callResource(server.serverUrl, undefined, { headers: { authorization: 'Bearer' } });
    expect(empty.status).toBe(401);
    expect(empty.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    const other = await callResource(server.serverUrl, undefined, { headers: { authorization: 'Basic abc' } });
    expect(other.status).toBe(401);
    expect(other.headers['www-authenticate']).toBe('Bearer realm="ctx"');
  });

  it('the Bearer scheme name is case-insensitive', async () => {
    const token = String((await tokensFor(ends)).json['access_token']);
    expect((await callResource(server.serverUrl, undefined, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
  });

  it('a token in the query string is ignored', async () => {
    const token = String((await tokensFor(ends)).json['access_token']);
    const got = await callResource(server.serverUrl, undefined, { query: `?access_token=${encodeURIComponent(token)}` });
    expect(got.status).toBe(401);
    expect(got.headers['www-authenticate']).toBe('Bearer realm="ctx"');
  });

  it('a token without the ctx scope: 403 insufficient_scope', async () => {
    const t = await tokensFor(ends, 'profile');
    expect(t.json['scope']).toBe('profile');
    const got = await callResource(server.serverUrl, String(t.json['access_token']));
    expect(got.status).toBe(403);
    expect(got.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="ctx"');
  });

  it('authorized calls with a bad body or method: 400 and 405', async () => {
    const token = String((await tokensFor(ends)).json['access_token']);
    const notJson = await call(server.serverUrl, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ error: { code: -32700 } });
    const get = await callResource(server.serverUrl, token, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers['allow']).toBe('POST');
  });
});

describe('ctx-auth reference server: dynamic registration (RFC 7591)', () => {
  const register = (body: unknown): Promise<Got> => call(ends.register, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('a public client: 201 with client_id, metadata echoed, no secret; the flow then works with it', async () => {
    const redirect = 'http://localhost:43210/callback';
    const got = await register({ redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], client_name: 'probe' });
    expect(got.status, got.text).toBe(201);
    expect(got.headers['cache-control']).toBe('no-store');
    expect(got.json).toEqual({
      client_id: expect.any(String),
      client_id_issued_at: Date.UTC(2026, 0, 1) / 1000,
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'probe',
    });
    const clientId = String(got.json['client_id']);
    const code = await codeFor(ends.authorize, { client_id: clientId, redirect_uri: redirect });
    const t = await exchange(ends.token, { grant_type: 'authorization_code', code, code_verifier: VERIFIER, client_id: clientId, redirect_uri: redirect });
    expect(t.status, t.text).toBe(200);
  });

  it('the default method client_secret_basic gets a secret that authenticates', async () => {
    const got = await register({ redirect_uris: ['https://app.example/cb'] });
    expect(got.status).toBe(201);
    expect(got.json).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', client_secret: expect.any(String), client_secret_expires_at: 0 });
    const code = await codeFor(ends.authorize, { client_id: String(got.json['client_id']), redirect_uri: 'https://app.example/cb' });
    const t = await exchange(ends.token, { grant_type: 'authorization_code', code, code_verifier: VERIFIER, redirect_uri: 'https://app.example/cb' }, basic(String(got.json['client_id']), String(got.json['client_secret'])));
    expect(t.status, t.text).toBe(200);
  });

  it.each([
    ['no redirect_uris', { client_name: 'x' }, 'invalid_client_metadata'],
    ['redirect_uris not an array', { redirect_uris: 'http://localhost/cb' }, 'invalid_client_metadata'],
    ['a redirect URI that is not a URI', { redirect_uris: ['::nope'] }, 'invalid_redirect_uri'],
    ['a non-loopback http redirect URI', { redirect_uris: ['http://example.com/cb'] }, 'invalid_redirect_uri'],
    ['an unsupported auth method', { redirect_uris: ['http://localhost/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    ['a body that is not JSON', '{', 'invalid_client_metadata'],
  ])('%s: 400 %s', async (_name, body, error) => {
    const got = await register(body);
    expect(got.status).toBe(400);
    expect(got.json['error']).toBe(error);
    expect(typeof got.json['error_description']).toBe('string');
  });
});

describe('ctx-auth reference server: observations', () => {
  it('records every request in arrival order, with bodies as text and statuses', async () => {
    const own = await startCtxServer({ clock: new VirtualClock(Date.UTC(2026, 0, 2)) });
    try {
      await call(`${own.origin}/.well-known/oauth-authorization-server`, { headers: { 'CTX-Protocol-Version': '2025-03-26' } });
      const code = await codeFor(`${own.origin}/authorize`);
      const body = form({ grant_type: 'authorization_code', code, code_verifier: VERIFIER, client_id: 'sg-ctx-public', redirect_uri: PUBLIC_REDIRECT });
      const t = await call(`${own.origin}/token`, { method: 'POST', headers: FORM_TYPE, body });
      await callResource(own.serverUrl, String(t.json['access_token']));
      await call(`${own.origin}/nowhere`);
      const seen = own.observations();
      expect(seen.map((o) => [o.seq, o.method, o.path, o.status])).toEqual([
        [1, 'GET', '/.well-known/oauth-authorization-server', 200],
        [2, 'GET', '/authorize', 302],
        [3, 'POST', '/token', 200],
        [4, 'POST', '/ctx', 200],
        [5, 'GET', '/nowhere', 404],
      ]);
      expect(seen[0]?.headers['ctx-protocol-version']).toBe('2025-03-26');
      expect(seen[1]?.query['code_challenge_method']).toEqual(['S256']);
      expect(seen[1]?.responseHeaders['location']).toContain(`code=${code}`);
      expect(seen[2]?.body).toBe(body);
      expect(JSON.parse(seen[2]?.responseBody ?? '{}')).toMatchObject({ access_token: t.json['access_token'] });
      expect(seen[3]?.body).toBe(JSON.stringify(INITIALIZE));
      expect(seen[3]?.responseHeaders['ctx-session-id']).toMatch(/^[0-9a-f]{32}$/);
      expect(seen.every((o) => o.at === Date.UTC(2026, 0, 2))).toBe(true);
    } finally {
      await own.stop();
    }
  });
});
