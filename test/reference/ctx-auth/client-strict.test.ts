import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { clientRuns, everyScenario, expectBearerSession, expectOneCodeExchange, expectRefreshChain, expectRegistrationUsed } from '../../helpers/ctx-client-runs.js';
import { declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import { PRECONFIGURED, find, form, grants, param, trail } from '../../fixtures/ctx-auth/peers/run-client.js';

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
  const run = clientRuns([process.execPath, STRICT_CLIENT], everyScenario(), 120_000);

  describe('standard', () => {
    it('after the 401: RFC 8414 discovery at the root with the version header, registration, authorization, token, three calls', () => {
      const r = run('standard');
      expect(r.exitCode, r.stderr).toBe(0);
      expect(trail(r)).toEqual(['POST /ctx 401', `${META} 200`, 'POST /register 201', 'GET /authorize 302', 'POST /token 200', ...CALLS_OK]);
      expect(find(r, 'GET', '/.well-known/oauth-authorization-server')[0]?.headers['ctx-protocol-version']).toBe('2025-03-26');
    });

    it('registers by JSON with the redirect URI it then uses, and authorizes with S256 and state', () => {
      const { authz } = expectRegistrationUsed(run('standard'));
      expect(param(authz, 'code_challenge_method')).toBe('S256');
      expect(param(authz, 'state')?.length).toBeGreaterThanOrEqual(43);
    });

    it('exchanges the code once, as a form with charset, with the verifier, the same redirect_uri and client_id', () => {
      const { tok } = expectOneCodeExchange(run('standard'));
      expect(tok.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    });

    it('sends every call after the token with it as Bearer and echoes the session header', () => {
      expectBearerSession(run('standard'));
    });
  });

  it('custom-paths: uses the advertised /oauth2/ endpoints', () => {
    const r = run('custom-paths');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual(['POST /ctx 401', `${META} 200`, 'POST /oauth2/register 201', 'GET /oauth2/authorize 302', 'POST /oauth2/token 200', ...CALLS_OK]);
  });

  it('no-metadata: stops at the 404, having no fallback endpoints, and never reaches /register, /authorize or /token', () => {
    const r = run('no-metadata');
    expect(r.exitCode).toBe(1);
    expect(trail(r)).toEqual(['POST /ctx 401', `${META} 404`]);
    expect(r.stderr).toMatch(/metadata discovery for http:\/\/127\.0\.0\.1:\d+\/ failed in oauth4webapi: "response" is not a conform Authorization Server Metadata response \(unexpected HTTP status code\)/);
  });

  it('no-registration: uses the client ID it was given and registers nothing', () => {
    const r = run('no-registration');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual(['POST /ctx 401', `${META} 200`, 'GET /authorize 302', 'POST /token 200', ...CALLS_OK]);
    const [tok] = grants(r, 'authorization_code');
    expect(tok && form(tok).get('client_id')).toBe(PRECONFIGURED.clientId);
    expect(tok && form(tok).get('redirect_uri')).toBe(PRECONFIGURED.redirectUri);
  });

  it('mid-session-expiry: refreshes with the latest refresh token after each 401 and retries with the new token', () => {
    const r = run('mid-session-expiry');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(trail(r)).toEqual([
      'POST /ctx 401', `${META} 200`, 'POST /register 201', 'GET /authorize 302', 'POST /token 200',
      'POST /ctx 200', 'POST /ctx 401', 'POST /token 200', 'POST /ctx 200', 'POST /ctx 401', 'POST /token 200', 'POST /ctx 200',
    ]);
    expectRefreshChain(r);
  });

  it('wrong-state: validateAuthResponse refuses the changed state, and the code is never exchanged', () => {
    const r = run('wrong-state');
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/unexpected "state" response parameter value/);
    expect(trail(r)).toEqual(['POST /ctx 401', `${META} 200`, 'POST /register 201', 'GET /authorize 302']);
  });
});
