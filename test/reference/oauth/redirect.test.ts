import { describe, expect, it } from 'vitest';
import { matchRedirect } from '../../../reference/oauth/model/redirect.js';

const CB = 'http://app.example.test/callback';

describe('redirect URL rules (spec 000, B, Redirect URLs)', () => {
  const table: Array<[string, string, boolean, string]> = [
    ['same host, same path', CB, true, 'OAUTH-REDIRECT-PATH'],
    ['same host, deeper path', `${CB}/deeper/still`, true, 'OAUTH-REDIRECT-PATH'],
    ['sub-domain, same path', 'http://sub.app.example.test/callback', true, 'OAUTH-REDIRECT-HOST'],
    ['sub-domain, deeper path', 'http://a.b.app.example.test/callback/x', true, 'OAUTH-REDIRECT-HOST'],
    ['same host, sibling path', 'http://app.example.test/other', false, 'OAUTH-REDIRECT-PATH'],
    ['same host, prefix sibling', 'http://app.example.test/callbackx', false, 'OAUTH-REDIRECT-PATH'],
    ['same host, root path', 'http://app.example.test/', false, 'OAUTH-REDIRECT-PATH'],
    ['same host, another port', 'http://app.example.test:8080/callback', false, 'OAUTH-REDIRECT-PORT'],
    ['sub-domain, another port', 'http://sub.app.example.test:8080/callback', false, 'OAUTH-REDIRECT-PORT'],
    ['different host', 'http://other.test/callback', false, 'OAUTH-REDIRECT-HOST'],
    ['parent domain', 'http://example.test/callback', false, 'OAUTH-REDIRECT-HOST'],
    ['suffix without dot', 'http://evilapp.example.test/callback', false, 'OAUTH-REDIRECT-HOST'],
    ['host as a label prefix', 'http://app.example.test.evil.test/callback', false, 'OAUTH-REDIRECT-HOST'],
    ['userinfo trick', 'http://app.example.test@evil.test/callback', false, 'OAUTH-REDIRECT-HOST'],
    ['dot-dot escape', 'http://app.example.test/callback/../secret', false, 'OAUTH-REDIRECT-PATH'],
    ['encoded dot-dot escape', 'http://app.example.test/callback/%2e%2e/secret', false, 'OAUTH-REDIRECT-PATH'],
    ['upper-case host', 'http://APP.Example.TEST/callback', true, 'OAUTH-REDIRECT-PATH'],
    ['path case differs', 'http://app.example.test/Callback', false, 'OAUTH-REDIRECT-PATH'],
    ['query kept', `${CB}?next=1`, true, 'OAUTH-REDIRECT-PATH'],
    ['loopback against a named host', 'http://127.0.0.1:5000/callback', false, 'OAUTH-REDIRECT-HOST'],
    ['other scheme', 'https://app.example.test/callback', false, 'OAUTH-REDIRECT-HOST'],
    ['not a URL', 'callback', false, 'OAUTH-REDIRECT-HOST'],
  ];
  for (const [name, candidate, accepted, rule] of table) {
    it(`${name}: ${accepted ? 'accepted' : 'rejected'} by ${rule}`, () => {
      const v = matchRedirect(CB, candidate);
      expect(v.accepted).toBe(accepted);
      expect(v.rule).toBe(rule);
    });
  }

  it('uses the callback URL when redirect_uri is omitted', () => {
    expect(matchRedirect(CB, undefined)).toMatchObject({ accepted: true, effective: CB, rule: 'OAUTH-REDIRECT-DEFAULT' });
  });

  it('lets loopback literals use any port, but not localhost', () => {
    expect(matchRedirect('http://127.0.0.1/callback', 'http://127.0.0.1:53127/callback')).toMatchObject({ accepted: true, rule: 'OAUTH-REDIRECT-LOOPBACK-PORT' });
    expect(matchRedirect('http://[::1]/callback', 'http://[::1]:8000/callback/x')).toMatchObject({ accepted: true, rule: 'OAUTH-REDIRECT-LOOPBACK-PORT' });
    expect(matchRedirect('http://127.0.0.1/callback', 'http://127.0.0.1:53127/other').accepted).toBe(false);
    expect(matchRedirect('http://127.0.0.1/callback', 'http://[::1]:53127/callback').accepted).toBe(false);
    expect(matchRedirect('http://127.0.0.1/callback', 'http://localhost:53127/callback').accepted).toBe(false);
    expect(matchRedirect('http://localhost/callback', 'http://localhost:53127/callback')).toMatchObject({ accepted: false, rule: 'OAUTH-REDIRECT-PORT' });
    expect(matchRedirect('http://localhost/callback', 'http://localhost/callback').accepted).toBe(true);
  });

  it('treats an explicit default port as the same port', () => {
    expect(matchRedirect(CB, 'http://app.example.test:80/callback').accepted).toBe(true);
  });
});
