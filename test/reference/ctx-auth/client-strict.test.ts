import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { pool } from '../../../src/engine/run-suite.js';
import { fromRoot } from '../../../src/paths.js';
import { declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import {
  CTX_SCENARIOS,
  PRECONFIGURED,
  find,
  form,
  grants,
  issuedRefresh,
  issuedToken,
  json,
  param,
  redirectParams,
  runClient,
  s256,
  trail,
  type ClientRun,
  type CtxScenario,
} from '../../fixtures/ctx-auth/peers/run-client.js';

/**
 * oauth4webapi 3.8.8, a strict general-purpose OAuth 2 client library, as the ctx-auth client
 * under test through test/fixtures/ctx-auth/peers/strict-client.ts: its discovery
 * (`algorithm: 'oauth2'`), registration, PKCE and state functions, `validateAuthResponse`, code
 * exchange, refresh and `protectedResourceRequest`. Every assertion is what it really sent;
 * the one scenario it cannot do (no metadata) is asserted as it fails.
 */
const STRICT_CLIENT = fromRoot('dist', 'test', 'fixtures', 'ctx-auth', 'peers', 'strict-client.js');
const strict = requirePeer('oauth4webapi and its launcher', moduleAvailable('oauth4webapi') && existsSync(STRICT_CLIENT), 'npm install (devDependency oauth4webapi@3.8.8), then npm run build');
declarePeer(strict);

const META = 'GET /.well-known/oauth-authorization-server';
const CALLS_OK = ['POST /ctx 200', 'POST /ctx 200', 'POST /ctx 200'];

describe.skipIf(strict.skip)('oauth4webapi 3.8.8 as a ctx-auth client', () => {
  const runs = {} as Record<CtxScenario, ClientRun>;
  beforeAll(async () => {
    await pool(CTX_SCENARIOS, 2, async (s) => {
      runs[s] = await runClient([process.execPath, STRICT_CLIENT], s);
    });
  }, 120_000);

  describe('standard', () => {
    it('after the 401: RFC 8414 discovery at the root with the version header, registration, authorization, token, three calls', () => {
      const r = runs.standard;
      expect(r.exitCode, r.stderr).toBe(0);
      expect(trail(r)).toEqual(['POST /ctx 401', `${META} 200`, 'POST /register 201', 'GET /authorize 302', 'POST /token 200', ...CALLS_OK]);
      expect(find(r, 'GET', '/.well-known/oauth-authorization-server')[0]?.headers['ctx-protocol-version']).toBe('2025-03-26');
    });

    it('registers by JSON with the redirect URI it then uses, and authorizes with S256 and state', () => {
      const r = runs.standard;
      const [reg] = find(r, 'POST', '/register');
      const [authz] = find(r, 'GET', '/authorize');
      if (!reg || !authz) throw new Error('no registration or authorization request');
      expect(reg.headers['content-type']).toBe('application/json');
      expect(json(reg.body)['redirect_uris']).toEqual([param(authz, 'redirect_uri')]);
      expect(param(authz, 'client_id')).toBe(json(reg.responseBody)['client_id']);
      expect(param(authz, 'code_challenge_method')).toBe('S256');
      expect(param(authz, 'state')?.length).toBeGreaterThanOrEqual(43);
    });

    it('exchanges the code once, as a form with charset, with the verifier, the same redirect_uri and client_id', () => {
      const r = runs.standard;
      const [authz] = find(r, 'GET', '/authorize');
      const exchanges = grants(r, 'authorization_code');
      expect(exchanges).toHaveLength(1);
      const [tok] = exchanges;
      if (!authz || !tok) throw new Error('no authorization or token request');
      expect(tok.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
      const f = form(tok);
      expect(f.get('code')).toBe(redirectParams(authz).get('code'));
      expect(f.get('redirect_uri')).toBe(param(authz, 'redirect_uri'));
      expect(f.get('client_id')).toBe(param(authz, 'client_id'));
      expect(s256(f.get('code_verifier') ?? '')).toBe(param(authz, 'code_challenge'));
    });

    it('sends every call after the token with it as Bearer and echoes the session header', () => {
      const r = runs.standard;
      const [tok] = grants(r, 'authorization_code');
      if (!tok) throw new Error('no token request');
      const [, ...later] = find(r, 'POST', '/ctx');
      expect(later.map((o) => o.headers['authorization'])).toEqual(later.map(() => `Bearer ${issuedToken(tok)}`));
      expect(r.observations.filter((o) => 'access_token' in o.query)).toEqual([]);
      const session = later[0]?.responseHeaders['ctx-session-id'];
      expect(later.slice(1).map((o) => o.headers['ctx-session-id'])).toEqual([session, session]);
    });
  });

  it('custom-paths: uses the advertised /oauth2/ endpoints', () => {
    const r = runs['custom-paths'];
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual(['POST /ctx 401', `${META} 200`, 'POST /oauth2/register 201', 'GET /oauth2/authorize 302', 'POST /oauth2/token 200', ...CALLS_OK]);
  });

  it('no-metadata: stops at the 404, having no fallback endpoints, and never reaches /register, /authorize or /token', () => {
    const r = runs['no-metadata'];
    expect(r.exitCode).toBe(1);
    expect(trail(r)).toEqual(['POST /ctx 401', `${META} 404`]);
    expect(r.stderr).toMatch(/metadata discovery for http:\/\/127\.0\.0\.1:\d+\/ failed in oauth4webapi: "response" is not a conform Authorization Server Metadata response \(unexpected HTTP status code\)/);
  });

  it('no-registration: uses the client ID it was given and registers nothing', () => {
    const r = runs['no-registration'];
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual(['POST /ctx 401', `${META} 200`, 'GET /authorize 302', 'POST /token 200', ...CALLS_OK]);
    const [tok] = grants(r, 'authorization_code');
    expect(tok && form(tok).get('client_id')).toBe(PRECONFIGURED.clientId);
    expect(tok && form(tok).get('redirect_uri')).toBe(PRECONFIGURED.redirectUri);
  });

  it('mid-session-expiry: refreshes with the latest refresh token after each 401 and retries with the new token', () => {
    const r = runs['mid-session-expiry'];
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual([
      'POST /ctx 401', `${META} 200`, 'POST /register 201', 'GET /authorize 302', 'POST /token 200',
      'POST /ctx 200', 'POST /ctx 401', 'POST /token 200', 'POST /ctx 200', 'POST /ctx 401', 'POST /token 200', 'POST /ctx 200',
    ]);
    const [code] = grants(r, 'authorization_code');
    const refreshes = grants(r, 'refresh_token');
    if (!code || !refreshes[0]) throw new Error('no code exchange or refresh');
    expect(refreshes.map((o) => form(o).get('refresh_token'))).toEqual([issuedRefresh(code), issuedRefresh(refreshes[0])]);
    for (const refresh of refreshes) {
      expect(r.observations.find((o) => o.seq === refresh.seq + 1)?.headers['authorization']).toBe(`Bearer ${issuedToken(refresh)}`);
    }
  });

  it('wrong-state: validateAuthResponse refuses the changed state, and the code is never exchanged', () => {
    const r = runs['wrong-state'];
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/unexpected "state" response parameter value/);
    expect(trail(r)).toEqual(['POST /ctx 401', `${META} 200`, 'POST /register 201', 'GET /authorize 302']);
  });
});
