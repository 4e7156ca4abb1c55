import { describe, expect, it } from 'vitest';
import { HTTPS, httpsCheck, judgeHttps } from '../../../suites/ctx-auth/checks/https.js';
import { outcome, scriptedContext } from './check-context.js';

/** `ctx-auth.https`: every authorization endpoint over HTTPS, loopback http only under the exemption. */

const run = (vars: Record<string, unknown>) => {
  const probe = scriptedContext(vars, () => ({ status: 500 }));
  return { probe, done: httpsCheck.run(probe.ctx, {} as never) };
};

describe('the HTTPS rule', () => {
  it('passes https, exempts loopback http only when told, and fails any other URL', () => {
    const urls = [
      { name: 'issuer', url: 'https://as.example.com' },
      { name: 'token_endpoint', url: 'http://127.0.0.1:8080/token' },
      { name: 'authorization_endpoint', url: 'http://localhost/authorize' },
      { name: 'registration_endpoint', url: 'http://[::1]:9/register' },
    ];
    expect(judgeHttps(urls, true)).toEqual({ failures: [], exempted: urls.slice(1) });
    expect(judgeHttps(urls, false).failures.map((f) => f.name)).toEqual(['token_endpoint', 'authorization_endpoint', 'registration_endpoint']);
    const bad = judgeHttps([{ name: 'token_endpoint', url: 'http://127.0.0.1.example.com/token' }, { name: 'issuer', url: 'not a url' }, { name: 'authorization_endpoint', url: 'ftp://as.example.com/a' }], true);
    expect(bad.failures.map((f) => f.why)).toEqual(['is served over http, not https', 'is not an absolute URL', 'is served over ftp, not https']);
  });
});

describe('ctx-auth.https', () => {
  it('judges the issuer and every advertised endpoint of a server with metadata', async () => {
    const { probe, done } = run({ has_metadata: true, issuer: 'https://as.example.com', authorization_endpoint: 'https://as.example.com/a', token_endpoint: 'http://as.example.com/token', registration_endpoint: 'https://as.example.com/r' });
    expect(await outcome(done)).toEqual({ ended: 'ran' });
    expect(probe.failures).toEqual([expect.objectContaining({ requirement: HTTPS, actual: 'http://as.example.com/token', message: expect.stringContaining('the token_endpoint http://as.example.com/token is served over http, not https') })]);
  });

  it('judges the fallback base of a server without metadata', async () => {
    const { probe, done } = run({ has_metadata: false, auth_base: 'http://ctx.example.com' });
    await done;
    expect(probe.failures.map((f) => f.actual)).toEqual(['http://ctx.example.com']);
  });

  it('passes the loopback reference under the exemption, noting it, and fails it when the profile turns it off', async () => {
    const exempt = run({ has_metadata: true, issuer: 'http://127.0.0.1:5555', authorization_endpoint: 'http://127.0.0.1:5555/authorize', token_endpoint: 'http://127.0.0.1:5555/token' });
    await exempt.done;
    expect(exempt.probe.failures).toEqual([]);
    expect(exempt.probe.notes).toEqual([expect.stringContaining('exempted as loopback http (vars.https_exempt_loopback is true): issuer http://127.0.0.1:5555, authorization_endpoint')]);
    for (const off of [false, 'false']) {
      const strict = run({ has_metadata: false, auth_base: 'http://127.0.0.1:5555', https_exempt_loopback: off });
      await strict.done;
      expect(strict.probe.failures.map((f) => f.message)).toEqual([expect.stringContaining('is http on a loopback host, and vars.https_exempt_loopback is false')]);
    }
  });

  it('needs discovery first', async () => {
    expect(await outcome(run({}).done)).toMatchObject({ ended: 'error', code: 'SG_SUITE_SCHEMA' });
  });
});
