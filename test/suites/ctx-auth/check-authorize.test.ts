import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRequestSpec } from '../../../src/engine/model.js';
import { VirtualClock } from '../../../src/engine/clock.js';
import { startCtxServer, type RunningCtxServer } from '../../../reference/ctx-auth/server/server.js';
import { PUBLIC_CLIENT_ID, PUBLIC_REDIRECT_URIS } from '../../../reference/ctx-auth/model/clients.js';
import { APPENDIX_B, s256Challenge } from '../../../generators/ctx-auth/pkce-pair.js';
import { MAX_HOPS, authorizationQuery, authorizeCheck } from '../../../suites/ctx-auth/checks/authorize.js';
import type { UserAgentDriver } from '../../../src/targets/types.js';
import { liveContext, outcome, scriptedContext, type Answer } from './check-context.js';

/** `ctx-auth.authorize`: the headless user-agent step, or the target's own user agent. */

const run = (ctx: Parameters<typeof authorizeCheck.run>[0], args: Record<string, unknown> = {}): Promise<void> => authorizeCheck.run(ctx, args as never);
const captured = (vars: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(['code', 'state', 'error', 'status', 'location', 'redirected'].map((k) => [k, vars[k]]));

describe('ctx-auth.authorize against the reference server', () => {
  let server: RunningCtxServer;
  beforeAll(async () => {
    server = await startCtxServer({ clock: new VirtualClock() });
  });
  afterAll(() => server.stop());
  const redirect = PUBLIC_REDIRECT_URIS[0] ?? '';
  const vars = (): Record<string, unknown> => ({ authorization_endpoint: `${server.origin}/authorize`, client_id: PUBLIC_CLIENT_ID, redirect_uri: redirect, scope: 'ctx' });

  it('reads code and state off the redirect it does not follow', async () => {
    const probe = liveContext(vars());
    try {
      await run(probe.ctx, { state: 's p+a/c=e&x' });
      expect(captured(probe.ctx.vars)).toMatchObject({ code: expect.any(String), state: 's p+a/c=e&x', error: undefined, status: 302, redirected: true, location: expect.stringMatching(/^http:\/\/127\.0\.0\.1:7777\/callback\?/) });
      // one GET, to the authorization server only
      expect(probe.sent).toHaveLength(1);
      expect(new URL(probe.sent[0]?.url ?? '').searchParams.get('code_challenge')).toBe(APPENDIX_B.challenge);
    } finally {
      await probe.close();
    }
  });

  it('sees a refusal that allows no redirect, and an error that is redirected', async () => {
    const probe = liveContext(vars());
    try {
      await run(probe.ctx, { redirect_uri: 'http://127.0.0.1:7777/not-registered' });
      expect(captured(probe.ctx.vars)).toMatchObject({ code: undefined, status: 400, redirected: false, error: 'invalid_request' });
      await run(probe.ctx, { response_type: 'token', state: 'e1' });
      expect(captured(probe.ctx.vars)).toMatchObject({ code: undefined, status: 302, redirected: true, error: 'unsupported_response_type', state: 'e1' });
    } finally {
      await probe.close();
    }
  });
});

describe('ctx-auth.authorize request parameters', () => {
  const probe = scriptedContext({ client_id: 'c', redirect_uri: 'http://127.0.0.1:1/cb', scope: 'ctx' }, () => ({ status: 500 }));

  it('fills the case\'s client and scope, S256 of appendix B by default, and leaves out what is null', () => {
    expect(authorizationQuery(probe.ctx, {})).toEqual({ response_type: 'code', client_id: 'c', redirect_uri: 'http://127.0.0.1:1/cb', scope: 'ctx', code_challenge: APPENDIX_B.challenge, code_challenge_method: 'S256' });
    expect(authorizationQuery(probe.ctx, { client_id: null, redirect_uri: null, scope: null, code_challenge: null })).toEqual({ response_type: 'code' });
    expect(authorizationQuery(probe.ctx, { code_verifier: 'v'.repeat(43) })['code_challenge']).toBe(s256Challenge('v'.repeat(43)));
    expect(authorizationQuery(probe.ctx, { code_verifier: 'v'.repeat(43), code_challenge_method: 'plain' })).toMatchObject({ code_challenge: 'v'.repeat(43), code_challenge_method: 'plain' });
    expect(authorizationQuery(probe.ctx, { code_challenge_method: null })).not.toHaveProperty('code_challenge_method');
  });
});

describe('ctx-auth.authorize on planted answers', () => {
  const base = { authorization_endpoint: 'https://as.test/authorize?tenant=t1', client_id: 'c', redirect_uri: 'http://127.0.0.1:1/cb' };

  it('follows the authorization server\'s own redirects with their cookies, and stops at the redirect URI', async () => {
    const route = (spec: HttpRequestSpec): Answer => {
      const url = new URL(spec.url ?? '');
      if (url.pathname === '/authorize') return { status: 302, headers: { location: '/login?next=consent', 'set-cookie': ['sid=abc; Path=/; HttpOnly', 'theme=dark'] } };
      if (url.pathname === '/login') return spec.headers?.['Cookie'] === 'sid=abc; theme=dark' ? { status: 303, headers: { location: 'https://as.test/consent' } } : { status: 401 };
      if (url.pathname === '/consent') return { status: 302, headers: { location: 'http://127.0.0.1:1/cb?code=k1&state=s1' } };
      return { status: 404 };
    };
    const probe = scriptedContext(base, route);
    await run(probe.ctx, { state: 's1' });
    expect(captured(probe.ctx.vars)).toEqual({ code: 'k1', state: 's1', error: undefined, status: 302, redirected: true, location: 'http://127.0.0.1:1/cb?code=k1&state=s1' });
    expect(probe.sent.map((s) => new URL(s.url ?? '').pathname)).toEqual(['/authorize', '/login', '/consent']);
    // the endpoint's own query is kept
    expect(new URL(probe.sent[0]?.url ?? '').searchParams.get('tenant')).toBe('t1');
  });

  it('captures a code handed to a redirect URI that was not registered (the wrong answer the case then fails on)', async () => {
    const probe = scriptedContext(base, (spec) => ({ status: 302, headers: { location: `${new URL(spec.url ?? '').searchParams.get('redirect_uri') ?? ''}?code=leaked` } }));
    await run(probe.ctx, { redirect_uri: 'https://attacker.example/cb' });
    expect(captured(probe.ctx.vars)).toMatchObject({ code: 'leaked', redirected: true, location: 'https://attacker.example/cb?code=leaked' });
  });

  it('reads an error sent back in the fragment, as for response_type=token (RFC 6749 §4.2.2.1)', async () => {
    const probe = scriptedContext(base, () => ({ status: 303, headers: { location: 'http://127.0.0.1:1/cb#error=unsupported_response_type&state=f1' } }));
    await run(probe.ctx, { response_type: 'token', state: 'f1' });
    expect(captured(probe.ctx.vars)).toMatchObject({ code: undefined, error: 'unsupported_response_type', state: 'f1', redirected: true });
  });

  it('tells a page that keeps the browser from a redirect elsewhere', async () => {
    const page = scriptedContext(base, () => ({ status: 200, body: '<form>Sign in</form>' }));
    await run(page.ctx);
    expect(captured(page.ctx.vars)).toMatchObject({ code: undefined, status: 200, redirected: false, location: undefined });
    // off to somewhere that is not the redirect URI: left the server, but not redirected to the client
    const elsewhere = scriptedContext(base, () => ({ status: 302, headers: { location: 'https://idp.example/login' } }));
    await run(elsewhere.ctx);
    expect(captured(elsewhere.ctx.vars)).toMatchObject({ redirected: false, location: 'https://idp.example/login', code: undefined });
  });

  it('gives up on a server that keeps redirecting within itself, naming the user agent to configure', async () => {
    let n = 0;
    const probe = scriptedContext(base, () => ({ status: 302, headers: { location: `/step/${++n}` } }));
    const r = await outcome(run(probe.ctx));
    expect(r).toMatchObject({ ended: 'error', code: 'SG_TARGET_PROTOCOL', message: expect.stringContaining('add agent: with an "authorize" action') });
    expect(probe.sent).toHaveLength(MAX_HOPS);
  });

  it('is blocked by the metadata shape rule when the metadata names no authorization endpoint, and names a missing discovery as the case file\'s', async () => {
    expect(await outcome(run(scriptedContext({ has_metadata: true, client_id: 'c' }, () => ({ status: 500 })).ctx))).toMatchObject({ ended: 'blocked', by: 'CTX-SRV-METADATA-SHAPE', reason: expect.stringContaining('names no authorization_endpoint') });
    expect(await outcome(run(scriptedContext({ client_id: 'c' }, () => ({ status: 500 })).ctx))).toMatchObject({ ended: 'error', code: 'SG_SUITE_SCHEMA', message: expect.stringContaining('run ctx-auth.discover') });
  });

  it('asks the target\'s user agent, or the bridge, instead when there is one', async () => {
    const asked: { action: string; params: Record<string, unknown> }[] = [];
    const agent: UserAgentDriver = { kind: 'scripted', perform: async (action, params) => (asked.push({ action, params }), { code: 'from-agent', state: 'z', status: '302', location: 'http://127.0.0.1:1/cb?code=from-agent&state=z' }) };
    const probe = scriptedContext(base, () => ({ status: 500 }), agent);
    await run(probe.ctx, { state: 'z' });
    expect(probe.sent).toEqual([]);
    expect(asked[0]?.action).toBe('authorize');
    expect(asked[0]?.params).toMatchObject({ redirect_uri: 'http://127.0.0.1:1/cb', query: { state: 'z', client_id: 'c' }, url: expect.stringContaining('https://as.test/authorize?tenant=t1&') });
    expect(captured(probe.ctx.vars)).toMatchObject({ code: 'from-agent', state: 'z', status: 302, redirected: true });
    expect(probe.notes).toEqual(['user agent (scripted): authorize']);
    const bridged = scriptedContext({ ...base, agent_bridge_url: 'https://bridge.test/ua' }, (spec) => (spec.url === 'https://bridge.test/ua/authorize' ? { status: 200, body: { error: 'access_denied', redirected: true } } : { status: 500 }));
    await run(bridged.ctx);
    expect(captured(bridged.ctx.vars)).toMatchObject({ error: 'access_denied', redirected: true, code: undefined });
    const broken = scriptedContext({ ...base, agent_bridge_url: 'https://bridge.test/ua' }, () => ({ status: 502 }));
    expect(await outcome(run(broken.ctx))).toMatchObject({ ended: 'error', code: 'SG_TARGET_PROTOCOL' });
  });
});
