import { describe, expect, it } from 'vitest';
import type { ClientEvidence } from '../../../suites/ctx-auth/checks/client-evidence.js';
import { PASS, failing, judge } from '../../helpers/ctx-client-judges.js';
import { ACCESS_1, CHALLENGE, CLIENT_ID, CODE_1, CODE_2, REDIRECT, VERIFIER, VERIFIER_2, authorize, call, evidence, exchange, metadata, register, runOf, standardFlow, unauthorized } from '../../fixtures/ctx-auth/clients/observations.js';

/**
 * The judges of the authorization code flow as a client runs it: PKCE, state, redirect URIs,
 * the token request, single use of a code, registration and a given client ID (spec 000 part C,
 * Authentication 1, 3, 8; OAuth 2.1 §4.1; RFC 7636; RFC 7591), on hand-made observations.
 */

const standard = (): ClientEvidence => evidence(runOf('standard', standardFlow()));

function withAt(i: number, replacement: ReturnType<typeof exchange>): ClientEvidence {
  const flow = standardFlow();
  flow[i] = replacement;
  return evidence(runOf('standard', flow));
}

describe('CTX-CLI-PKCE-CHALLENGE', () => {
  it('passes an S256 challenge', () => expect(judge('CTX-CLI-PKCE-CHALLENGE', standard())).toEqual(PASS));

  it('fails the plain method, a missing method and a missing challenge', () => {
    expect(judge('CTX-CLI-PKCE-CHALLENGE', withAt(3, authorize({ method: 'plain', challenge: VERIFIER })))).toMatchObject(failing(/^request #4 GET \/authorize carried code_challenge_method=plain, not S256$/));
    expect(judge('CTX-CLI-PKCE-CHALLENGE', withAt(3, authorize({ method: null })))).toMatchObject(failing(/^request #4 GET \/authorize carried no code_challenge_method/));
    expect(judge('CTX-CLI-PKCE-CHALLENGE', withAt(3, authorize({ challenge: null, method: null })))).toMatchObject(failing(/^request #4 GET \/authorize carried no code_challenge$/));
  });

  it('tolerates resource= and no scope (later revisions)', () => {
    expect(judge('CTX-CLI-PKCE-CHALLENGE', withAt(3, authorize({ extra: { resource: 'http://127.0.0.1:5555/ctx' } })))).toEqual(PASS);
  });
});

describe('CTX-CLI-PKCE-VERIFIER', () => {
  it('passes the verifier of the challenge', () => expect(judge('CTX-CLI-PKCE-VERIFIER', standard())).toEqual(PASS));

  it('fails an exchange without code_verifier, naming the request', () => {
    const ex = exchange();
    const { code_verifier: _dropped, ...form } = ex.form ?? {};
    expect(judge('CTX-CLI-PKCE-VERIFIER', withAt(4, { ...ex, form }))).toMatchObject(failing(/^request #5 POST \/token carried no code_verifier$/));
  });

  it('fails a verifier whose S256 is another challenge, or of the wrong length', () => {
    expect(judge('CTX-CLI-PKCE-VERIFIER', withAt(4, exchange({ code_verifier: VERIFIER_2 })))).toMatchObject(failing(/^request #5 POST \/token carried a code_verifier whose S256 is not the code_challenge of request #4 GET \/authorize$/));
    expect(judge('CTX-CLI-PKCE-VERIFIER', withAt(4, exchange({ code_verifier: 'short' })))).toMatchObject(failing(/carried a code_verifier of 5 characters \(RFC 7636 §4\.1: 43 to 128\)$/));
  });
});

describe('CTX-CLI-PKCE-FRESH', () => {
  it('passes different challenges across runs', () => {
    const other = [unauthorized(), metadata(), register(), authorize({ challenge: 'x'.repeat(43) })];
    expect(judge('CTX-CLI-PKCE-FRESH', evidence(runOf('standard', standardFlow()), runOf('custom-paths', other)))).toEqual(PASS);
  });

  it('fails a challenge sent again, naming both requests', () => {
    expect(judge('CTX-CLI-PKCE-FRESH', evidence(runOf('standard', standardFlow()), runOf('no-registration', [unauthorized(), metadata(), authorize()])))).toMatchObject(
      failing(/^no-registration scenario request #3 GET \/authorize repeats the code_challenge of standard scenario request #4 GET \/authorize: the verifier was not made afresh$/),
    );
  });

  it('cannot judge a single authorization request', () => {
    expect(judge('CTX-CLI-PKCE-FRESH', standard())).toEqual({ unjudged: expect.stringMatching(/^the client sent one authorization request with a code_challenge/) });
  });
});

describe('CTX-CLI-STATE-CHECKED', () => {
  const wrongState = (afterwards: ReturnType<typeof exchange>[]): ClientEvidence => evidence(runOf('wrong-state', [unauthorized(), metadata(), register(), authorize({ returned: 'not-the-state' }), ...afterwards]));

  it('passes a client that does not exchange the code of a redirect with another state', () => {
    expect(judge('CTX-CLI-STATE-CHECKED', wrongState([]))).toEqual(PASS);
  });

  it('fails a client that exchanges it', () => {
    expect(judge('CTX-CLI-STATE-CHECKED', wrongState([exchange()]))).toMatchObject(failing(/^request #5 POST \/token exchanged the code of request #4 GET \/authorize's redirect, which returned another state than the one that request sent$/));
  });

  it('is not applicable to a client that sent no state', () => {
    const run = runOf('wrong-state', [unauthorized(), metadata(), register(), authorize({ state: null }), exchange()]);
    expect(judge('CTX-CLI-STATE-CHECKED', evidence(run))).toEqual({ notApplicable: expect.stringMatching(/^the client sent no state \(request #4 GET \/authorize\)/) });
  });
});

describe('CTX-CLI-REDIRECT-URI', () => {
  it('passes loopback and https redirect URIs', () => {
    expect(judge('CTX-CLI-REDIRECT-URI', standard())).toEqual(PASS);
    const https = 'https://app.example/cb';
    const flow = [unauthorized(), metadata(), register('/register', [https]), authorize({ redirect: https }), exchange({ redirect_uri: https })];
    expect(judge('CTX-CLI-REDIRECT-URI', evidence(runOf('standard', flow)))).toEqual(PASS);
  });

  it('fails an http redirect URI off localhost, registered and used', () => {
    const bad = 'http://app.example/cb';
    const flow = [unauthorized(), metadata(), register('/register', [bad]), authorize({ redirect: bad }), exchange({ redirect_uri: bad })];
    expect(judge('CTX-CLI-REDIRECT-URI', evidence(runOf('standard', flow)))).toMatchObject(
      failing(/^request #3 POST \/register registers redirect URI http:\/\/app\.example\/cb is neither a localhost URL nor an HTTPS URL; request #4 GET \/authorize uses redirect URI/),
    );
  });
});

describe('CTX-CLI-REDIRECT-URI-SAME', () => {
  it('passes the same redirect_uri', () => expect(judge('CTX-CLI-REDIRECT-URI-SAME', standard())).toEqual(PASS));

  it('fails another redirect_uri in the exchange', () => {
    expect(judge('CTX-CLI-REDIRECT-URI-SAME', withAt(4, exchange({ redirect_uri: 'http://localhost:7777/callback' })))).toMatchObject(
      failing(/^request #5 POST \/token carried redirect_uri http:\/\/localhost:7777\/callback, not http:\/\/127\.0\.0\.1:7777\/callback of request #4 GET \/authorize$/),
    );
  });

  it('is not applicable when the exchanges leave redirect_uri out (OAuth 2.1)', () => {
    const ex = exchange();
    const { redirect_uri: _dropped, ...form } = ex.form ?? {};
    expect(judge('CTX-CLI-REDIRECT-URI-SAME', withAt(4, { ...ex, form }))).toEqual({ notApplicable: expect.stringMatching(/carry no redirect_uri, which OAuth 2\.1 clients may leave out$/) });
  });
});

describe('CTX-CLI-TOKEN-REQUEST', () => {
  it('passes a form POST with the code received and client_id', () => expect(judge('CTX-CLI-TOKEN-REQUEST', standard())).toEqual(PASS));

  it('fails a JSON body, and a code exchange without client_id', () => {
    const ex = exchange();
    expect(judge('CTX-CLI-TOKEN-REQUEST', withAt(4, { ...ex, form: undefined, json: ex.form }))).toMatchObject(failing(/^request #5 POST \/token is not form-encoded \(content-type application\/json\)$/));
    const { client_id: _dropped, ...form } = ex.form ?? {};
    expect(judge('CTX-CLI-TOKEN-REQUEST', withAt(4, { ...ex, form }))).toMatchObject(failing(/^request #5 POST \/token carried no client_id \(a public client names itself with client_id\)$/));
  });

  it('fails a code no redirect gave', () => {
    expect(judge('CTX-CLI-TOKEN-REQUEST', withAt(4, exchange({ code: CODE_2 })))).toMatchObject(failing(/^request #5 POST \/token carried a code no authorization redirect had given it$/));
  });

  it('accepts the client ID in HTTP Basic authentication', () => {
    const ex = exchange();
    const { client_id: _dropped, ...form } = ex.form ?? {};
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:`).toString('base64')}`;
    expect(judge('CTX-CLI-TOKEN-REQUEST', withAt(4, { ...ex, form, headers: { Authorization: basic } }))).toEqual(PASS);
  });
});

describe('CTX-CLI-CODE-ONCE', () => {
  it('passes one exchange per code', () => expect(judge('CTX-CLI-CODE-ONCE', standard())).toEqual(PASS));

  it('fails a code sent twice', () => {
    const flow = [...standardFlow(), exchange()];
    expect(judge('CTX-CLI-CODE-ONCE', evidence(runOf('standard', flow)))).toMatchObject(failing(/^request #9 POST \/token sent again the code request #5 POST \/token had already sent$/));
  });
});

describe('CTX-CLI-DCR', () => {
  it('passes a registration before the authorization', () => expect(judge('CTX-CLI-DCR', standard())).toEqual(PASS));

  it('fails an authorization without registration', () => {
    const flow = standardFlow().filter((_, i) => i !== 2);
    expect(judge('CTX-CLI-DCR', evidence(runOf('standard', flow)))).toMatchObject(
      failing(/^request #3 GET \/authorize came without any registration before it, though the metadata of request #2 GET \/\.well-known\/oauth-authorization-server advertises registration_endpoint http:\/\/127\.0\.0\.1:5555\/register/),
    );
  });
});

describe('CTX-CLI-DCR-BODY', () => {
  it('passes a JSON POST holding the redirect URI used later', () => expect(judge('CTX-CLI-DCR-BODY', standard())).toEqual(PASS));

  it('fails a registration without redirect_uris', () => {
    expect(judge('CTX-CLI-DCR-BODY', withAt(2, { ...register(), json: { client_name: 'x' } }))).toMatchObject(failing(/^request #3 POST \/register carried no redirect_uris$/));
  });

  it('fails a redirect URI used that was not registered', () => {
    expect(judge('CTX-CLI-DCR-BODY', withAt(3, authorize({ redirect: 'http://localhost:9999/cb' })))).toMatchObject(
      failing(/^the redirect_uri http:\/\/localhost:9999\/cb of request #4 GET \/authorize is not among the redirect_uris request #3 POST \/register registered$/),
    );
  });
});

describe('CTX-CLI-PRECONFIGURED-CLIENT', () => {
  const given = { clientId: 'sg-ctx-public', redirectUri: REDIRECT };
  const flow = (clientId: string, extra: ReturnType<typeof register>[] = []): ReturnType<typeof runOf> =>
    runOf('no-registration', [unauthorized(), metadata({ authorize: '/authorize', token: '/token' }), ...extra, authorize({ clientId }), exchange({ client_id: clientId }), call(ACCESS_1)], { told: given });

  it('passes the client ID it was given', () => expect(judge('CTX-CLI-PRECONFIGURED-CLIENT', evidence(flow('sg-ctx-public')))).toEqual(PASS));

  it('fails another client ID', () => {
    expect(judge('CTX-CLI-PRECONFIGURED-CLIENT', evidence(flow('someone-else')))).toMatchObject(failing(/^request #3 GET \/authorize used client_id someone-else, not the client ID it was given \(sg-ctx-public\); request #4 POST \/token named client_id someone-else/));
  });

  it('fails a registration attempt though a client ID was given', () => {
    const tried = { ...register(), status: 404, answer: { error: 'not_found' } };
    expect(judge('CTX-CLI-PRECONFIGURED-CLIENT', evidence(flow('sg-ctx-public', [tried])))).toMatchObject(failing(/^request #3 POST \/register -> 404 tried to register, though the client was given a client ID \(sg-ctx-public\)/));
  });
});

describe('the flow judges keep credentials out of their messages', () => {
  it('names requests, never codes, verifiers or tokens', () => {
    const bad = [unauthorized(), metadata(), register(), authorize({ returned: 'x', challenge: CHALLENGE }), exchange({ code_verifier: VERIFIER_2 }), exchange(), call(ACCESS_1)];
    const ev = evidence(runOf('wrong-state', bad));
    const messages = ['CTX-CLI-STATE-CHECKED', 'CTX-CLI-PKCE-VERIFIER', 'CTX-CLI-CODE-ONCE', 'CTX-CLI-TOKEN-REQUEST'].map((id) => JSON.stringify(judge(id, ev)));
    for (const m of messages) for (const secret of [CODE_1, VERIFIER, VERIFIER_2, ACCESS_1]) expect(m).not.toContain(secret);
    expect(messages.join('\n')).toMatch(/request #5 POST \/token/);
  });
});
