import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRequestSpec } from '../../../src/engine/model.js';
import { VirtualClock } from '../../../src/engine/clock.js';
import { startCtxServer, type RunningCtxServer } from '../../../reference/ctx-auth/server/server.js';
import { discoverCheck } from '../../../suites/ctx-auth/checks/discover.js';
import { liveContext, outcome, scriptedContext, type Answer } from './check-context.js';

/** `ctx-auth.discover`: endpoints from the host root's metadata or the root fallbacks, and the case's mode. */

const run = (ctx: Parameters<typeof discoverCheck.run>[0], args: Record<string, unknown> = {}): Promise<void> => discoverCheck.run(ctx, args as never);

describe('ctx-auth.discover against the reference server', () => {
  const servers: Record<string, RunningCtxServer> = {};
  beforeAll(async () => {
    servers['full'] = await startCtxServer({ clock: new VirtualClock() });
    servers['bare'] = await startCtxServer({ clock: new VirtualClock(), metadata: false, registration: false });
    servers['fallback'] = await startCtxServer({ clock: new VirtualClock(), metadata: false });
  });
  afterAll(async () => Promise.all(Object.values(servers).map((s) => s.stop())));
  const server = (name: string): RunningCtxServer => servers[name] as RunningCtxServer;

  it('takes the endpoints from the metadata at the host root, sending the version header', async () => {
    const s = server('full');
    const probe = liveContext({ server_url: `${s.serverUrl}/deeper/path` });
    try {
      expect(await outcome(run(probe.ctx))).toEqual({ ended: 'ran' });
      expect(probe.sent[0]).toMatchObject({ method: 'GET', url: `${s.origin}/.well-known/oauth-authorization-server`, headers: { 'CTX-Protocol-Version': '2025-03-26' } });
      expect(probe.ctx.vars).toMatchObject({
        auth_base: s.origin,
        has_metadata: true,
        issuer: s.issuer,
        authorization_endpoint: `${s.origin}/authorize`,
        token_endpoint: `${s.origin}/token`,
        registration_endpoint: `${s.origin}/register`,
        has_registration: true,
        protocol_version: '2025-03-26',
        resource_json: { jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: '2025-03-26' } },
      });
      expect(probe.ctx.vars['grant_types']).toContain('client_credentials');
      // the case for servers without metadata does not apply, and says why
      const other = await outcome(run(probe.ctx, { when: 'no-metadata' }));
      expect(other).toMatchObject({ ended: 'not-applicable', reason: expect.stringContaining('the server publishes authorization server metadata') });
      expect(await outcome(run(probe.ctx, { when: 'no-registration' }))).toMatchObject({ ended: 'not-applicable', reason: expect.stringContaining(`registration_endpoint ${s.origin}/register`) });
      expect(await outcome(run(probe.ctx, { when: 'client-credentials' }))).toEqual({ ended: 'ran' });
    } finally {
      await probe.close();
    }
  });

  it('without metadata, takes the root fallbacks and asks /register whether registration is offered', async () => {
    for (const [name, offered] of [['fallback', true], ['bare', false]] as const) {
      const s = server(name);
      const probe = liveContext({ server_url: s.serverUrl, protocol_version: '2025-06-18' });
      try {
        expect(await outcome(run(probe.ctx))).toEqual({ ended: 'ran' });
        expect(probe.sent[0]?.headers).toEqual({ 'CTX-Protocol-Version': '2025-06-18' });
        expect(probe.sent[1]).toMatchObject({ method: 'POST', url: `${s.origin}/register`, json: {} });
        expect(probe.ctx.vars).toMatchObject({ has_metadata: false, authorization_endpoint: `${s.origin}/authorize`, token_endpoint: `${s.origin}/token`, has_registration: offered });
        expect(probe.ctx.vars['registration_endpoint']).toBe(offered ? `${s.origin}/register` : undefined);
        expect(await outcome(run(probe.ctx, { when: 'metadata' }))).toMatchObject({ ended: 'not-applicable', reason: expect.stringContaining('publishes no authorization server metadata') });
        expect(await outcome(run(probe.ctx, { when: 'client-credentials' }))).toMatchObject({ ended: 'not-applicable', reason: expect.stringContaining('does not advertise the client_credentials grant') });
        const registration = await outcome(run(probe.ctx, { when: offered ? 'no-registration' : 'registration' }));
        expect(registration).toMatchObject({ ended: 'not-applicable', reason: expect.stringContaining(`answered ${offered ? 400 : 404}`) });
      } finally {
        await probe.close();
      }
    }
  });
});

describe('ctx-auth.discover on planted answers', () => {
  const document = (origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    issuer: origin,
    authorization_endpoint: `${origin}/oauth2/authorize`,
    token_endpoint: `${origin}/oauth2/token`,
    response_types_supported: ['code'],
    ...extra,
  });

  it('never takes a document published only below the server URL\'s path', async () => {
    // the planted server answers metadata below /ctx only: a client of 2025-03-26 finds none
    const route = (spec: HttpRequestSpec): Answer =>
      spec.url === 'https://ctx.test/ctx/.well-known/oauth-authorization-server' ? { status: 200, body: document('https://ctx.test') } : spec.method === 'POST' ? { status: 404 } : { status: 404, body: { error: 'not found' } };
    const probe = scriptedContext({ server_url: 'https://ctx.test/ctx' }, route);
    await run(probe.ctx);
    expect(probe.sent.map((s) => `${s.method ?? ''} ${s.url ?? ''}`)).toEqual(['GET https://ctx.test/.well-known/oauth-authorization-server', 'POST https://ctx.test/register']);
    expect(probe.ctx.vars).toMatchObject({ has_metadata: false, authorization_endpoint: 'https://ctx.test/authorize', has_registration: false });
  });

  it('takes advertised endpoints at other paths, and no registration without registration_endpoint', async () => {
    const probe = scriptedContext({ server_url: 'https://ctx.test/mcp' }, () => ({ status: 200, body: document('https://ctx.test', { grant_types_supported: ['authorization_code'] }) }));
    await run(probe.ctx);
    expect(probe.sent).toHaveLength(1);
    expect(probe.ctx.vars).toMatchObject({ authorization_endpoint: 'https://ctx.test/oauth2/authorize', token_endpoint: 'https://ctx.test/oauth2/token', registration_endpoint: undefined, has_registration: false });
    expect(await outcome(run(probe.ctx, { when: 'registration' }))).toMatchObject({ ended: 'not-applicable', reason: expect.stringContaining('its metadata names no registration_endpoint') });
    expect(await outcome(run(probe.ctx, { when: 'client-credentials' }))).toMatchObject({ ended: 'not-applicable', reason: expect.stringContaining('["authorization_code"]') });
  });

  it('reads resource_body given as JSON text, and names a broken one or a bad server_url as the profile\'s to fix', async () => {
    const metadata = (): Answer => ({ status: 200, body: document('https://ctx.test') });
    const given = scriptedContext({ server_url: 'https://ctx.test/mcp', resource_body: '{"jsonrpc":"2.0","id":9,"method":"tools/list"}' }, metadata);
    await run(given.ctx);
    expect(given.ctx.vars['resource_json']).toEqual({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
    expect(await outcome(run(scriptedContext({ server_url: 'https://ctx.test/mcp', resource_body: '{broken' }, metadata).ctx))).toMatchObject({ ended: 'error', code: 'SG_CONFIG', message: expect.stringContaining('vars.resource_body') });
    expect(await outcome(run(scriptedContext({ server_url: 'ctx.test/mcp' }, metadata).ctx))).toMatchObject({ ended: 'error', code: 'SG_CONFIG', message: expect.stringContaining('vars.server_url') });
    expect(await outcome(run(scriptedContext({}, metadata).ctx))).toMatchObject({ ended: 'error', code: 'SG_CONFIG', message: expect.stringContaining('set vars.server_url') });
  });
});
