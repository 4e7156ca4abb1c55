import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { OffsetClock } from '../../../reference/ctx-auth/server/clock-hook.js';
import { ctxAuthReference, ctxAuthReferenceTarget, referenceStartOptions, startCtxReference } from '../../../reference/ctx-auth/server/reference-target.js';
import { call, callResource, tokensFor } from './http-helpers.js';

describe('ctx-auth reference target', () => {
  it('sets the suite variables for the seeded clients', async () => {
    const ref = await startCtxReference({ clock: new VirtualClock() });
    try {
      const origin = ref.server.origin;
      expect(ref.vars).toEqual({
        server_url: `${origin}/ctx`,
        client_id: 'sg-ctx-public',
        redirect_uri: 'http://127.0.0.1:7777/callback',
        confidential_client_id: 'sg-ctx-confidential',
        confidential_client_secret: 'sg-ctx-confidential-secret',
        confidential_redirect_uri: 'http://127.0.0.1:7778/callback',
        scope: 'ctx',
        insufficient_scope: 'profile',
        protocol_version: '2025-03-26',
        https_exempt_loopback: true,
      });
      expect('client_secret' in ref.vars).toBe(false);
      expect(ref.description).toContain('metadata, registration');
      // the variables describe a server that works: the scope reaches the resource, insufficient_scope does not
      const ends = { authorize: `${origin}/authorize`, token: `${origin}/token` };
      const enough = await tokensFor(ends, String(ref.vars['scope']));
      expect((await callResource(String(ref.vars['server_url']), String(enough.json['access_token']))).status).toBe(200);
      const notEnough = await tokensFor(ends, String(ref.vars['insufficient_scope']));
      expect((await callResource(String(ref.vars['server_url']), String(notEnough.json['access_token']))).status).toBe(403);
    } finally {
      await ref.stop();
    }
  });

  it('starts in other modes with extra variables', async () => {
    const ref = await startCtxReference({ clock: new VirtualClock(), metadata: false, registration: false, extraVars: { ctx_client_command: 'node client.js' } });
    try {
      expect(ref.vars['ctx_client_command']).toBe('node client.js');
      expect(ref.description).toContain('no metadata, no registration');
      expect((await call(`${ref.server.origin}/.well-known/oauth-authorization-server`)).status).toBe(404);
    } finally {
      await ref.stop();
    }
  });

  it('the embedded target runs on the engine clock in a run', async () => {
    const clock = new VirtualClock(Date.UTC(2030, 5, 1));
    const ref = await ctxAuthReference.start({ clock });
    try {
      const origin = new URL(String(ref.vars['server_url'])).origin;
      const t = await tokensFor({ authorize: `${origin}/authorize`, token: `${origin}/token` });
      const token = String(t.json['access_token']);
      expect((await callResource(String(ref.vars['server_url']), token)).status).toBe(200);
      await clock.advance(Number(t.json['expires_in']) * 1000);
      expect((await callResource(String(ref.vars['server_url']), token)).status).toBe(401);
      expect((await call(`${origin}/__specgate/clock`)).status).toBe(404);
    } finally {
      await ref.stop();
    }
  });

  it('under serve: wall-clock plus offset, hooks on, extra variables added at each start', async () => {
    const opts = referenceStartOptions({ clock: new VirtualClock(0), standalone: true });
    expect(opts.clock).toBeInstanceOf(OffsetClock);
    expect(opts.hooks).toBe(true);
    expect(referenceStartOptions({ clock: new VirtualClock(0), port: 0 })).toEqual({ clock: expect.any(VirtualClock) });
    let n = 0;
    const target = ctxAuthReferenceTarget(() => ({ ctx_client_command: `client-${++n}` }));
    const ref = await target.start({ clock: new VirtualClock(), standalone: true });
    try {
      expect(ref.vars['ctx_client_command']).toBe('client-1');
      const origin = new URL(String(ref.vars['server_url'])).origin;
      expect(ref.vars['observations_url']).toBe(`${origin}/__specgate/observations`);
      const before = (await call(`${origin}/__specgate/clock`)).json['now'] as number;
      expect(Math.abs(before - Date.now())).toBeLessThan(5_000);
      const moved = await call(`${origin}/__specgate/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms": 3600000}' });
      expect((moved.json['now'] as number) - before).toBeGreaterThanOrEqual(3_600_000);
    } finally {
      await ref.stop();
    }
  });
});
