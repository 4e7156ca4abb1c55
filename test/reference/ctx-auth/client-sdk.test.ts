import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { clientRuns, everyScenario, expectOneCodeExchange, expectPkceAuthorization, expectRegistrationUsed } from '../../helpers/ctx-client-runs.js';
import { declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import { MCP_HEADERS, PRECONFIGURED, find, form, grants, issuedRefresh, issuedToken, json, param, redirectParams, rpcMethod, trail, type ClientRun } from '../../fixtures/ctx-auth/peers/run-client.js';

/**
 * @modelcontextprotocol/sdk 1.32.2 as the ctx-auth client under test, through
 * test/fixtures/ctx-auth/peers/sdk-client.ts (Client over StreamableHTTPClientTransport with a
 * headless OAuthClientProvider). The played server is told the SDK's header names
 * (MCP-Protocol-Version, Mcp-Session-Id), as a target profile's header mapping would. Every
 * assertion is what the SDK really sent; where that departs from the suite's client rules for
 * revision 2025-03-26 the test name says so.
 */
const SDK_CLIENT = fromRoot('dist', 'test', 'fixtures', 'ctx-auth', 'peers', 'sdk-client.js');
const sdk = requirePeer(
  '@modelcontextprotocol/sdk and its launcher',
  moduleAvailable('@modelcontextprotocol/sdk/client/index.js') && existsSync(SDK_CLIENT),
  'npm install (devDependency @modelcontextprotocol/sdk@1.32.2), then npm run build',
);
declarePeer(sdk);

const PRM = ['GET /.well-known/oauth-protected-resource/ctx 404', 'GET /.well-known/oauth-protected-resource 404'];
const META = 'GET /.well-known/oauth-authorization-server';
/** The SDK's discovery, done again by every auth() call: protected-resource probes (later revisions), then RFC 8414 at the root. */
const DISCOVERY = [...PRM, `${META} 200`];
/** The session after the token: initialize, notifications/initialized (202), two pings. */
const SESSION = ['POST /ctx 200', 'POST /ctx 202', 'POST /ctx 200', 'POST /ctx 200'];

/** The trail without the SDK's unawaited GET of an event stream, which races the next POST. */
function posts(r: ClientRun): string[] {
  return trail(r).filter((line) => !line.startsWith('GET /ctx '));
}

describe.skipIf(sdk.skip)('@modelcontextprotocol/sdk 1.32.2 as a ctx-auth client', () => {
  // the neutral run: the standard scenario with the suite's own header names
  const run = clientRuns([process.execPath, SDK_CLIENT], { ...everyScenario({ headers: MCP_HEADERS }), neutral: { scenario: 'standard' } }, 180_000);

  describe('standard', () => {
    it('starts on the 401, probes protected-resource metadata, finds RFC 8414 metadata at the root, registers, authorizes, and discovers again before the exchange', () => {
      const r = run('standard');
      expect(r.exitCode, r.stderr).toBe(0);
      expect(posts(r)).toEqual(['POST /ctx 401', ...DISCOVERY, 'POST /register 201', 'GET /authorize 302', ...DISCOVERY, 'POST /token 200', ...SESSION]);
      expect(find(r, 'POST', '/ctx').map(rpcMethod)).toEqual(['initialize', 'initialize', 'notifications/initialized', 'ping', 'ping']);
      expect(find(r, 'POST', '/ctx')[0]?.headers['authorization']).toBeUndefined();
    });

    it('sends the version header in discovery with its own latest revision 2025-11-25, not 2025-03-26', () => {
      const discovery = run('standard').observations.filter((o) => o.path.startsWith('/.well-known/'));
      expect(discovery).toHaveLength(6);
      expect(new Set(discovery.map((o) => o.headers['mcp-protocol-version']))).toEqual(new Set(['2025-11-25']));
    });

    it('asks initialize for 2025-11-25, takes the 2025-03-26 answered, and then sends that version on every request', () => {
      const [, init, ...later] = find(run('standard'), 'POST', '/ctx');
      expect(init && (json(init.body)['params'] as Record<string, unknown>)['protocolVersion']).toBe('2025-11-25');
      expect(init?.headers['mcp-protocol-version']).toBeUndefined();
      expect(later.map((o) => o.headers['mcp-protocol-version'])).toEqual(later.map(() => '2025-03-26'));
    });

    it('registers by JSON with the redirect URI it then uses, and authorizes with S256, state and scope, without resource', () => {
      const { authz } = expectRegistrationUsed(run('standard'));
      expectPkceAuthorization(authz);
      expect(authz.query['resource']).toBeUndefined();
    });

    it('exchanges the code once with the verifier, the same redirect_uri and its client_id', () => {
      const { form: f } = expectOneCodeExchange(run('standard'));
      expect(f.get('code_verifier')).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    });

    it('sends every resource request after the token (the GET of an event stream too) with it as Bearer, echoing the session header', () => {
      const r = run('standard');
      const [tok] = grants(r, 'authorization_code');
      if (!tok) throw new Error('no token request');
      const after = r.observations.filter((o) => o.path === '/ctx' && o.seq > tok.seq);
      expect(after.map((o) => o.headers['authorization'])).toEqual(after.map(() => `Bearer ${issuedToken(tok)}`));
      expect(find(r, 'GET', '/ctx').map((o) => `${o.status} ${o.headers['accept'] ?? ''}`)).toEqual(['405 text/event-stream']);
      expect(r.observations.filter((o) => 'access_token' in o.query)).toEqual([]);
      const session = after[0]?.responseHeaders['mcp-session-id'];
      expect(session).toMatch(/\S/);
      expect(after.slice(1).map((o) => o.headers['mcp-session-id'])).toEqual(after.slice(1).map(() => session));
    });
  });

  it('with the neutral header names, the launcher renames the SDK\'s headers both ways', () => {
    const neutral = run('neutral');
    expect(neutral.exitCode, neutral.stderr).toBe(0);
    const [meta] = find(neutral, 'GET', '/.well-known/oauth-authorization-server');
    expect(meta?.headers['ctx-protocol-version']).toBe('2025-11-25');
    expect(meta?.headers['mcp-protocol-version']).toBeUndefined();
    const last = find(neutral, 'POST', '/ctx').at(-1);
    expect(last?.headers['ctx-session-id']).toBe(find(neutral, 'POST', '/ctx')[1]?.responseHeaders['ctx-session-id']);
  });

  it('custom-paths: uses the advertised /oauth2/ endpoints', () => {
    const r = run('custom-paths');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts(r)).toEqual(['POST /ctx 401', ...DISCOVERY, 'POST /oauth2/register 201', 'GET /oauth2/authorize 302', ...DISCOVERY, 'POST /oauth2/token 200', ...SESSION]);
  });

  it('no-metadata: after RFC 8414 and OpenID metadata both answer 404, uses /register, /authorize and /token at the root', () => {
    const r = run('no-metadata');
    expect(r.exitCode, r.stderr).toBe(0);
    const discovery = [...PRM, `${META} 404`, 'GET /.well-known/openid-configuration 404'];
    expect(posts(r)).toEqual(['POST /ctx 401', ...discovery, 'POST /register 201', 'GET /authorize 302', ...discovery, 'POST /token 200', ...SESSION]);
  });

  it('no-registration: uses the client ID it was given and registers nothing', () => {
    const r = run('no-registration');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts(r)).toEqual(['POST /ctx 401', ...DISCOVERY, 'GET /authorize 302', ...DISCOVERY, 'POST /token 200', ...SESSION]);
    const [authz] = find(r, 'GET', '/authorize');
    const [tok] = grants(r, 'authorization_code');
    expect(authz && param(authz, 'client_id')).toBe(PRECONFIGURED.clientId);
    expect(tok && form(tok).get('client_id')).toBe(PRECONFIGURED.clientId);
    expect(tok && form(tok).get('redirect_uri')).toBe(PRECONFIGURED.redirectUri);
  });

  describe('mid-session-expiry', () => {
    it('renews by refresh_token grants only, never a new authorization, and completes the session', () => {
      const r = run('mid-session-expiry');
      expect(r.exitCode, r.stderr).toBe(0);
      expect(find(r, 'GET', '/authorize')).toHaveLength(1);
      expect(grants(r, 'refresh_token').length).toBeGreaterThanOrEqual(3);
      const answered = find(r, 'POST', '/ctx').filter((o) => o.status === 200 || o.status === 202);
      expect(answered.map(rpcMethod)).toEqual(['initialize', 'notifications/initialized', 'ping', 'ping']);
    });

    it('sends only refresh tokens it was issued, and after every 401 retries the request with a newer token', () => {
      const r = run('mid-session-expiry');
      const issued = new Set(r.observations.filter((o) => o.path === '/token' && o.status === 200).map(issuedRefresh));
      for (const g of grants(r, 'refresh_token')) expect(issued.has(form(g).get('refresh_token') ?? '')).toBe(true);
      for (const refused of find(r, 'POST', '/ctx').filter((o) => o.status === 401 && o.headers['authorization'] !== undefined)) {
        const retry = find(r, 'POST', '/ctx').find((o) => o.seq > refused.seq && o.body === refused.body);
        expect(retry?.headers['authorization']).toMatch(/^Bearer /);
        expect(retry?.headers['authorization']).not.toBe(refused.headers['authorization']);
      }
    });

    it('refreshes twice at once with the same refresh token when two requests are refused together, and the rotated one is refused', () => {
      const r = run('mid-session-expiry');
      const refreshes = grants(r, 'refresh_token');
      const reused = refreshes.filter((g, i) => refreshes.findIndex((h) => form(h).get('refresh_token') === form(g).get('refresh_token')) !== i);
      // "together": the SDK's unawaited event-stream GET and its next POST both carried the token
      // the server refused. They race: on a busy machine the GET's refusal may be refreshed
      // before the POST leaves, which then carries the new token, and nothing is refused twice.
      const refusedBearers = r.observations.filter((o) => o.path === '/ctx' && o.status === 401 && o.headers['authorization'] !== undefined).map((o) => o.headers['authorization']);
      const together = refusedBearers.some((b, i) => refusedBearers.indexOf(b) !== i);
      if (!together) {
        // each refusal refreshed once, each refresh token used once
        expect(reused, trail(r).join('\n')).toEqual([]);
        return;
      }
      expect(reused.length, trail(r).join('\n')).toBeGreaterThanOrEqual(1);
      expect(reused.map((o) => `${o.status} ${json(o.responseBody)['error'] as string}`)).toContain('400 invalid_grant');
    });
  });

  it('wrong-state: exchanges the code although the redirect carries another state (the SDK never compares it)', () => {
    const r = run('wrong-state');
    expect(r.exitCode, r.stderr).toBe(0);
    const [authz] = find(r, 'GET', '/authorize');
    const [tok] = grants(r, 'authorization_code');
    if (!authz || !tok) throw new Error('no authorization or token request');
    expect(redirectParams(authz).get('state')).not.toBe(param(authz, 'state'));
    expect(form(tok).get('code')).toBe(redirectParams(authz).get('code'));
    expect(tok.status).toBe(200);
  });
});
