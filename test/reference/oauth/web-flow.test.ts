import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { Platform, s256, type AuthorizeParams } from '../../../reference/oauth/model/index.js';

const USER = 1001;
const CB = 'http://app.example.test/callback';

function setup() {
  const clock = new VirtualClock();
  const p = new Platform({ clock, seed: 11 });
  /** Authorize (approving when asked) and return the code. */
  const code = (params: Partial<AuthorizeParams> = {}): { code: string; prompted: boolean; location: string } => {
    const d = p.web.review({ client_id: 'sg-web-app', ...params }, USER);
    if (d.kind === 'redirect') return { code: d.code, prompted: false, location: d.location };
    if (d.kind === 'consent') {
      const a = p.web.approve(d.pending, USER);
      return { code: a.code, prompted: true, location: a.location };
    }
    throw new Error(d.description);
  };
  const exchange = (c: string, extra: Record<string, string> = {}) => p.web.exchange({ client_id: 'sg-web-app', client_secret: 'sg-web-secret-0001', code: c, ...extra });
  return { clock, p, code, exchange };
}

describe('web application flow (spec 000, B, Endpoints 1 and 2)', () => {
  it('redirects to the callback with code and state; the code is single-use', () => {
    const { code, exchange } = setup();
    const c = code({ state: 'xyz' });
    expect(c.location).toBe(`${CB}?code=${c.code}&state=xyz`);
    const r = exchange(c.code);
    expect(r.ok).toBe(true);
    expect(exchange(c.code)).toMatchObject({ ok: false, requirement: 'OAUTH-CODE-SINGLE-USE' });
  });

  it('expires codes after 10 minutes', async () => {
    const { clock, code, exchange } = setup();
    const a = code();
    const b = code();
    await clock.advance(599_000);
    expect(exchange(a.code).ok).toBe(true);
    await clock.advance(1_000);
    expect(exchange(b.code)).toMatchObject({ ok: false, requirement: 'OAUTH-CODE-EXPIRY' });
  });

  it('matches redirect_uri against the one used at issue', () => {
    const { code, exchange } = setup();
    const deeper = `${CB}/deeper`;
    expect(exchange(code({ redirect_uri: deeper }).code, { redirect_uri: CB })).toMatchObject({ ok: false, requirement: 'OAUTH-TOKEN-REDIRECT-MATCH' });
    expect(exchange(code({ redirect_uri: deeper }).code, { redirect_uri: deeper }).ok).toBe(true);
    expect(exchange(code().code, { redirect_uri: CB }).ok).toBe(true);
  });

  it('requires the client secret', () => {
    const { code, exchange } = setup();
    expect(exchange(code().code, { client_secret: 'wrong' })).toMatchObject({ ok: false, requirement: 'OAUTH-TOKEN-CLIENT-AUTH' });
  });

  it('checks the PKCE verifier', () => {
    const { code, exchange } = setup();
    const v = 'v'.repeat(50);
    const pk = { code_challenge: s256(v), code_challenge_method: 'S256' };
    expect(exchange(code(pk).code)).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-VERIFIER-REQUIRED' });
    expect(exchange(code(pk).code, { code_verifier: 'w'.repeat(50) })).toMatchObject({ ok: false, requirement: 'OAUTH-PKCE-VERIFIER-MATCH' });
    expect(exchange(code(pk).code, { code_verifier: v }).ok).toBe(true);
  });

  it('defaults to no scopes, then skips the page with the union of earlier scopes', () => {
    const { code, exchange } = setup();
    const first = code();
    expect(first.prompted).toBe(true);
    const t0 = exchange(first.code);
    expect(t0.ok && t0.token.scopes).toEqual([]);
    const second = code({ scope: 'repo user' });
    expect(second.prompted).toBe(true);
    exchange(second.code);
    const third = code({ scope: 'user' });
    expect(third.prompted).toBe(false);
    const t3 = exchange(third.code);
    expect(t3.ok && t3.token.scopes).toEqual(['repo', 'user']);
  });

  it('revokes the oldest token at the eleventh of a combination (outside the hourly rate)', async () => {
    const { clock, p, code, exchange } = setup();
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = exchange(code({ scope: 'repo' }).code);
      if (r.ok) tokens.push(r.token.value);
    }
    await clock.advance(3_600_000);
    const r = exchange(code({ scope: 'repo' }).code);
    expect(r.ok).toBe(true);
    expect(p.tokens.lookup(tokens[0] ?? '')).toBeUndefined();
    expect(p.tokens.find(tokens[0] ?? '')?.revoked).toBe('eleventh-token');
    expect(p.tokens.lookup(tokens[1] ?? '')).toBeDefined();
  });

  it('shows a re-authorization prompt at ten creations in an hour and keeps the oldest token', () => {
    const { p, code, exchange } = setup();
    const first: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = exchange(code({ scope: 'gist' }).code);
      if (r.ok) first.push(r.token.value);
    }
    const d = p.web.review({ client_id: 'sg-web-app', scope: 'gist' }, USER);
    expect(d).toMatchObject({ kind: 'consent', reauthorize: true });
    if (d.kind !== 'consent') return;
    const r = exchange(p.web.approve(d.pending, USER).code);
    expect(r.ok).toBe(true);
    expect(p.tokens.lookup(first[0] ?? '')).toBeDefined();
  });

  it('rejects unknown clients, bad redirects and bad PKCE before anything is shown', () => {
    const { p } = setup();
    expect(p.web.review({ client_id: 'nope' }, USER)).toMatchObject({ kind: 'error', requirement: 'OAUTH-AUTHZ-CLIENT-ID' });
    expect(p.web.review({ client_id: 'sg-web-app', redirect_uri: 'http://app.example.test:81/callback' }, USER)).toMatchObject({ kind: 'error', requirement: 'OAUTH-REDIRECT-PORT' });
    expect(p.web.review({ client_id: 'sg-web-app', code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, USER)).toMatchObject({ kind: 'error', requirement: 'OAUTH-PKCE-S256-ONLY' });
  });
});
