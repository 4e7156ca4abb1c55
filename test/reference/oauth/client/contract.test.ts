import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { s256 } from '../../../../reference/oauth/model/pkce.js';
import { SPEC_BEHAVIOUR } from '../../../../reference/oauth/client/behaviour.js';
import { clientEnvVars, readClientEnv, scopeList, type ClientEnv } from '../../../../reference/oauth/client/contract.js';

const env: ClientEnv = { flow: 'web', authUrl: 'http://127.0.0.1:1', apiUrl: 'http://127.0.0.1:1/api', clientId: 'app', clientSecret: 's', callbackUrl: 'http://127.0.0.1:2/callback', scope: 'repo  read:user' };

describe('launch contract', () => {
  it('reads back what the harness sets', () => {
    expect(readClientEnv(clientEnvVars(env))).toEqual(env);
    expect(scopeList(env)).toEqual(['repo', 'read:user']);
  });

  it('names the variable that is missing or wrong', () => {
    expect(() => readClientEnv({})).toThrow(/SPECGATE_FLOW/);
    expect(() => readClientEnv({ ...clientEnvVars(env), SPECGATE_FLOW: 'implicit' })).toThrow(/web or device/);
    expect(() => readClientEnv({ ...clientEnvVars(env), SPECGATE_CALLBACK_URL: '' })).toThrow(/SPECGATE_CALLBACK_URL/);
    expect(readClientEnv({ ...clientEnvVars({ ...env, flow: 'device' }), SPECGATE_CALLBACK_URL: '' }).callbackUrl).toBe('');
  });

  it('drops a trailing slash of the base URLs', () => {
    expect(readClientEnv({ ...clientEnvVars(env), SPECGATE_AUTH_URL: 'http://h/' }).authUrl).toBe('http://h');
  });
});

describe('spec behaviour of the reference client', () => {
  it('makes a 43-character S256 challenge from a 43-character verifier', () => {
    for (let i = 0; i < 20; i++) {
      const p = SPEC_BEHAVIOUR.newPkce();
      expect(p?.method).toBe('S256');
      expect(p?.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(p?.challenge).toBe(s256(p?.verifier ?? ''));
      expect(p?.challenge).toHaveLength(43);
    }
  });

  it('makes a new 256-bit state every time', () => {
    const states = new Set(Array.from({ length: 50 }, () => SPEC_BEHAVIOUR.newState()));
    expect(states.size).toBe(50);
    for (const s of states) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('accepts only the exact state it sent', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.option(fc.string(), { nil: null }), (sent, returned) => {
        expect(SPEC_BEHAVIOUR.stateMatches(sent, returned)).toBe(returned === sent);
      }),
    );
    expect(SPEC_BEHAVIOUR.stateMatches(undefined, 'x')).toBe(false);
    expect(SPEC_BEHAVIOUR.stateMatches(undefined, null)).toBe(false);
  });

  it('polls with the device grant type and no secret; raises the interval after slow_down', () => {
    expect(SPEC_BEHAVIOUR.pollParams({ clientId: 'a', clientSecret: 's', deviceCode: 'd' })).toEqual({ client_id: 'a', device_code: 'd', grant_type: 'urn:ietf:params:oauth:grant-type:device_code' });
    expect(SPEC_BEHAVIOUR.afterSlowDown(5, 10)).toBe(10);
    expect(SPEC_BEHAVIOUR.afterSlowDown(5, undefined)).toBe(10);
    expect(SPEC_BEHAVIOUR.afterSlowDown(5, 3)).toBe(10);
    expect(SPEC_BEHAVIOUR.apiAuthorization('t')).toBe('Bearer t');
    expect(SPEC_BEHAVIOUR.scopeParam(['a', 'b'])).toBe('a b');
  });
});
