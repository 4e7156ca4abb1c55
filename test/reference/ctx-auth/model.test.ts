import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { challengeProblem, s256, verifierMatches } from '../../../reference/ctx-auth/model/pkce.js';
import { redirectUriProblem } from '../../../reference/ctx-auth/model/redirect-uris.js';
import { checkRegistration } from '../../../reference/ctx-auth/model/registration.js';
import { CtxModel } from '../../../reference/ctx-auth/model/ctx-model.js';
import { buildMetadata, CUSTOM_PATHS, FALLBACK_PATHS } from '../../../reference/ctx-auth/model/metadata.js';
import { parseScope } from '../../../reference/ctx-auth/model/scopes.js';
import { CHALLENGE, PUBLIC_REDIRECT, VERIFIER } from './http-helpers.js';

const authorizeFor = (model: CtxModel, changes: Record<string, string | undefined> = {}) => {
  const params: Record<string, string> = { client_id: 'sg-ctx-public', redirect_uri: PUBLIC_REDIRECT, response_type: 'code', code_challenge: CHALLENGE, code_challenge_method: 'S256', state: 's' };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete params[k];
    else params[k] = v;
  }
  return model.authorize(params);
};

describe('ctx-auth model: PKCE (RFC 7636)', () => {
  it('S256 of the appendix B verifier is the appendix B challenge', () => {
    expect(s256(VERIFIER)).toBe(CHALLENGE);
    expect(verifierMatches(CHALLENGE, VERIFIER)).toBe(true);
    expect(verifierMatches(CHALLENGE, `${VERIFIER.slice(0, -1)}A`)).toBe(false);
  });

  it('requires a challenge, S256, and 43 base64url characters', () => {
    expect(challengeProblem(CHALLENGE, 'S256')).toBeUndefined();
    expect(challengeProblem(undefined, 'S256')).toMatch(/code_challenge is required/);
    expect(challengeProblem(CHALLENGE, undefined)).toMatch(/code_challenge_method is required/);
    expect(challengeProblem(VERIFIER, 'plain')).toMatch(/plain is not supported/);
    expect(challengeProblem(CHALLENGE.slice(1), 'S256')).toMatch(/43 characters/);
    expect(challengeProblem(`${CHALLENGE.slice(1)}=`, 'S256')).toMatch(/base64url/);
  });
});

describe('ctx-auth model: redirect URIs (C Auth 8)', () => {
  it.each([
    ['http://127.0.0.1:7777/callback', true],
    ['http://localhost/cb', true],
    ['http://[::1]:9/cb', true],
    ['https://example.com/cb', true],
    ['http://example.com/cb', false],
    ['http://127.0.0.2/cb', false],
    ['com.example.app:/cb', false],
    ['https://example.com/cb#frag', false],
    ['/relative', false],
  ])('%s accepted: %s', (uri, ok) => {
    expect(redirectUriProblem(uri) === undefined).toBe(ok);
  });
});

describe('ctx-auth model: registration metadata (RFC 7591)', () => {
  it('fills the defaults of §2', () => {
    const r = checkRegistration({ redirect_uris: ['http://localhost:3000/cb'], client_name: 'x', unknown_field: 1 });
    expect(r).toEqual({
      ok: true,
      value: { redirectUris: ['http://localhost:3000/cb'], tokenEndpointAuthMethod: 'client_secret_basic', grantTypes: ['authorization_code'], responseTypes: ['code'], extras: { client_name: 'x' } },
    });
  });

  it.each([
    [{}, 'invalid_client_metadata'],
    [{ redirect_uris: 'http://localhost/cb' }, 'invalid_client_metadata'],
    [{ redirect_uris: [] }, 'invalid_client_metadata'],
    [{ redirect_uris: [42] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['not a uri'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['http://example.com/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['http://localhost/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['http://localhost/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['http://localhost/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['http://localhost/cb'], token_endpoint_auth_method: 'none', grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['http://localhost/cb'], scope: 'ctx admin' }, 'invalid_client_metadata'],
    [[], 'invalid_client_metadata'],
  ])('%j is refused with %s', (body, error) => {
    const r = checkRegistration(body);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBe(error);
  });

  it('registers a public client without a secret and a confidential one with one', () => {
    const model = new CtxModel({ clock: new VirtualClock(Date.UTC(2026, 0, 1)) });
    const pub = model.register({ redirect_uris: ['http://localhost:1/cb'], token_endpoint_auth_method: 'none' });
    const conf = model.register({ redirect_uris: ['https://app.example/cb'] });
    expect(pub.ok && conf.ok).toBe(true);
    if (!pub.ok || !conf.ok) return;
    expect(pub.body['client_secret']).toBeUndefined();
    expect(conf.body).toMatchObject({ client_secret: expect.any(String), client_secret_expires_at: 0, client_id_issued_at: Date.UTC(2026, 0, 1) / 1000 });
    expect(model.clients.get(pub.client.clientId)).toBe(pub.client);
    expect(pub.client.clientId).not.toBe(conf.client.clientId);
  });
});

describe('ctx-auth model: codes and tokens on the clock', () => {
  it('a code expires after codeTtlSeconds on the model clock', async () => {
    const clock = new VirtualClock();
    const model = new CtxModel({ clock, codeTtlSeconds: 60 });
    const first = authorizeFor(model);
    const second = authorizeFor(model);
    if (first.kind !== 'code' || second.kind !== 'code') return expect.unreachable('no code');
    await clock.advance(59_999);
    expect(model.token({ grant_type: 'authorization_code', code: first.code.value, code_verifier: VERIFIER, redirect_uri: PUBLIC_REDIRECT }, { formClientId: 'sg-ctx-public' }).ok).toBe(true);
    await clock.advance(1);
    const late = model.token({ grant_type: 'authorization_code', code: second.code.value, code_verifier: VERIFIER, redirect_uri: PUBLIC_REDIRECT }, { formClientId: 'sg-ctx-public' });
    expect(late).toMatchObject({ ok: false, error: 'invalid_grant', description: expect.stringMatching(/expired/) });
  });

  it('an access token expires at expires_in and counts calls when expireAfterCalls is set', async () => {
    const clock = new VirtualClock();
    const model = new CtxModel({ clock, accessTokenTtlSeconds: 10, expireAfterCalls: 2 });
    const r = model.token({ grant_type: 'client_credentials' }, { basic: { clientId: 'sg-ctx-confidential', clientSecret: 'sg-ctx-confidential-secret' } });
    if (!r.ok) return expect.unreachable(r.description);
    expect(r.body.expires_in).toBe(10);
    expect(model.accessResource(r.body.access_token).ok).toBe(true);
    expect(model.accessResource(r.body.access_token).ok).toBe(true);
    expect(model.accessResource(r.body.access_token)).toMatchObject({ ok: false, kind: 'invalid' });
    const again = model.token({ grant_type: 'client_credentials' }, { basic: { clientId: 'sg-ctx-confidential', clientSecret: 'sg-ctx-confidential-secret' } });
    if (!again.ok) return expect.unreachable(again.description);
    await clock.advance(10_000);
    expect(model.accessResource(again.body.access_token)).toMatchObject({ ok: false, kind: 'invalid', description: expect.stringMatching(/expired/) });
  });

  it('a code used twice is refused and what it bought is revoked', () => {
    const model = new CtxModel({ clock: new VirtualClock() });
    const a = authorizeFor(model);
    if (a.kind !== 'code') return expect.unreachable('no code');
    const form = { grant_type: 'authorization_code', code: a.code.value, code_verifier: VERIFIER, redirect_uri: PUBLIC_REDIRECT };
    const first = model.token(form, { formClientId: 'sg-ctx-public' });
    if (!first.ok) return expect.unreachable(first.description);
    expect(model.token(form, { formClientId: 'sg-ctx-public' })).toMatchObject({ ok: false, error: 'invalid_grant' });
    expect(model.accessResource(first.body.access_token)).toMatchObject({ ok: false, kind: 'invalid' });
    expect(model.tokens.refreshToken(first.body.refresh_token ?? '')?.active).toBe(false);
  });

  it('an unknown scope is invalid_scope at /authorize; scope defaults to ctx', () => {
    const model = new CtxModel({ clock: new VirtualClock() });
    expect(authorizeFor(model, { scope: 'ctx admin' })).toMatchObject({ kind: 'redirect-error', error: 'invalid_scope', state: 's' });
    const ok = authorizeFor(model);
    expect(ok.kind === 'code' && ok.code.scopes).toEqual(['ctx']);
    expect(parseScope('  ctx  ctx profile ')).toEqual(['ctx', 'profile']);
  });
});

describe('ctx-auth model: metadata document (RFC 8414)', () => {
  it('names absolute endpoints on the issuer, registration only when offered', () => {
    const m = buildMetadata('http://127.0.0.1:9', FALLBACK_PATHS, { registration: true });
    expect(m).toEqual({
      issuer: 'http://127.0.0.1:9',
      authorization_endpoint: 'http://127.0.0.1:9/authorize',
      token_endpoint: 'http://127.0.0.1:9/token',
      registration_endpoint: 'http://127.0.0.1:9/register',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      scopes_supported: ['ctx', 'profile'],
    });
    const custom = buildMetadata('https://as.example', CUSTOM_PATHS, { registration: false });
    expect(custom.authorization_endpoint).toBe('https://as.example/oauth2/authorize');
    expect('registration_endpoint' in custom).toBe(false);
  });
});
