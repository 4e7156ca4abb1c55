import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRequestSpec } from '../../../src/engine/model.js';
import { VirtualClock } from '../../../src/engine/clock.js';
import { checkSets } from '../../../src/engine/checks/contract.js';
import { startCtxServer, type RunningCtxServer } from '../../../reference/ctx-auth/server/server.js';
import { REGISTERED_REDIRECT_URI, clientCheck } from '../../../suites/ctx-auth/checks/acting-client.js';
import { liveContext, outcome, scriptedContext, type Answer } from './check-context.js';

/** `ctx-auth.client`: registered when the server offers registration, else the profile's client. */

const run = (ctx: Parameters<typeof clientCheck.run>[0], args: Record<string, unknown> = {}): Promise<void> => clientCheck.run(ctx, args as never);
const REGISTER = 'https://ctx.test/register';
const discovered = { has_registration: true, registration_endpoint: REGISTER };

describe('ctx-auth.client against the reference server', () => {
  let server: RunningCtxServer;
  beforeAll(async () => {
    server = await startCtxServer({ clock: new VirtualClock() });
  });
  afterAll(() => server.stop());

  it('registers a public client (no secret, whatever the profile has) and a confidential one with a secret', async () => {
    const probe = liveContext({ has_registration: true, registration_endpoint: `${server.origin}/register`, client_id: 'profile-client', client_secret: 'profile-secret' });
    try {
      await run(probe.ctx);
      expect(probe.ctx.vars['client_id']).not.toBe('profile-client');
      expect(probe.ctx.vars).toMatchObject({ client_secret: undefined, redirect_uri: REGISTERED_REDIRECT_URI, client_registered: true });
      expect(probe.sent[0]?.json).toMatchObject({ redirect_uris: [REGISTERED_REDIRECT_URI], token_endpoint_auth_method: 'none' });
      await run(probe.ctx, { kind: 'confidential', as: 'other' });
      expect(probe.ctx.vars['other_client_id']).toEqual(expect.any(String));
      expect(probe.ctx.vars['other_client_secret']).toEqual(expect.any(String));
      expect(probe.ctx.vars['other_client_id']).not.toBe(probe.ctx.vars['client_id']);
      expect(probe.sent[1]?.json).toMatchObject({ token_endpoint_auth_method: 'client_secret_post', grant_types: expect.arrayContaining(['client_credentials']) });
    } finally {
      await probe.close();
    }
  });
});

describe('ctx-auth.client on planted answers and profiles', () => {
  const registrar = (answer: Answer) => (spec: HttpRequestSpec): Answer => (spec.url === REGISTER ? answer : { status: 500 });

  it('blocks the case by CTX-SRV-DCR-VALID when the registration of a valid client is refused or gives no client', async () => {
    const refused = scriptedContext(discovered, registrar({ status: 400, body: { error: 'invalid_client_metadata' } }));
    expect(await outcome(run(refused.ctx))).toMatchObject({ ended: 'blocked', by: 'CTX-SRV-DCR-VALID', reason: expect.stringMatching(/^registering a public client at https:\/\/ctx\.test\/register answered 400/) });
    const nameless = scriptedContext(discovered, registrar({ status: 201, body: { redirect_uris: [REGISTERED_REDIRECT_URI] } }));
    expect(await outcome(run(nameless.ctx))).toMatchObject({ ended: 'blocked', by: 'CTX-SRV-DCR-VALID' });
    // a confidential registration that comes back without a secret gives the case no confidential client
    const secretless = scriptedContext(discovered, registrar({ status: 201, body: { client_id: 'c1' } }));
    expect(await outcome(run(secretless.ctx, { kind: 'confidential' }))).toMatchObject({ ended: 'blocked', by: 'CTX-SRV-DCR-VALID', reason: expect.stringContaining('no client_secret') });
  });

  it('without registration, takes the profile\'s clients, and is skipped saying what to set when there are none', async () => {
    const none = { has_registration: false };
    const profile = scriptedContext({ ...none, client_id: 'pre', redirect_uri: 'http://127.0.0.1:9/cb' }, () => ({ status: 500 }));
    await run(profile.ctx);
    expect(profile.sent).toEqual([]);
    expect(profile.ctx.vars).toMatchObject({ client_id: 'pre', client_secret: undefined, redirect_uri: 'http://127.0.0.1:9/cb', client_registered: false });
    const confidential = scriptedContext({ ...none, client_id: 'pre', confidential_client_id: 'conf', confidential_client_secret: 's3' }, () => ({ status: 500 }));
    await run(confidential.ctx, { kind: 'confidential', as: 'other' });
    expect(confidential.ctx.vars).toMatchObject({ other_client_id: 'conf', other_client_secret: 's3' });
    // a preconfigured client with a secret is a confidential client too
    const withSecret = scriptedContext({ ...none, client_id: 'pre', client_secret: 'p' }, () => ({ status: 500 }));
    await run(withSecret.ctx, { kind: 'confidential' });
    expect(withSecret.ctx.vars).toMatchObject({ client_id: 'pre', client_secret: 'p' });
    expect(await outcome(run(scriptedContext(none, () => ({ status: 500 })).ctx))).toMatchObject({ ended: 'skipped', reason: expect.stringContaining('set vars.client_id and vars.redirect_uri') });
    expect(await outcome(run(scriptedContext({ ...none, client_id: 'pre' }, () => ({ status: 500 })).ctx, { kind: 'confidential' }))).toMatchObject({ ended: 'skipped', reason: expect.stringContaining('vars.confidential_client_id') });
  });

  it('insists on the way asked for, and needs discovery first', async () => {
    const preferred = scriptedContext({ ...discovered, client_id: 'pre' }, () => ({ status: 500 }));
    await run(preferred.ctx, { via: 'preconfigured' });
    expect(preferred.sent).toEqual([]);
    expect(preferred.ctx.vars['client_id']).toBe('pre');
    expect(await outcome(run(scriptedContext({ has_registration: false }, () => ({ status: 500 })).ctx, { via: 'registration' }))).toMatchObject({ ended: 'error', code: 'SG_TARGET_PROTOCOL' });
    expect(await outcome(run(scriptedContext({}, () => ({ status: 500 })).ctx))).toMatchObject({ ended: 'error', code: 'SG_SUITE_SCHEMA', message: expect.stringContaining('run ctx-auth.discover before ctx-auth.client') });
  });

  it('declares the variables it sets under the prefix', () => {
    expect(checkSets(clientCheck, {})).toEqual(['client_id', 'client_secret', 'redirect_uri', 'client_registered']);
    expect(checkSets(clientCheck, { as: 'other' })).toEqual(['other_client_id', 'other_client_secret', 'other_redirect_uri', 'other_client_registered']);
  });
});
