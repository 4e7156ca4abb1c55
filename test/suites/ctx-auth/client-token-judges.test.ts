import { describe, expect, it } from 'vitest';
import type { ClientEvidence } from '../../../suites/ctx-auth/checks/client-evidence.js';
import type { ClientVerdict } from '../../../suites/ctx-auth/checks/client-verdicts.js';
import { PASS, failing, judge } from '../../helpers/ctx-client-judges.js';
import { ACCESS_1, ACCESS_2, CODE_2, REFRESH_1, REFRESH_2, SECRETS, authorize, call, evidence, exchange, metadata, refresh, register, runOf, standardFlow, unauthorized, type Req } from '../../fixtures/ctx-auth/clients/observations.js';

/**
 * The judges of how a client carries and renews its token (spec 000 part C, Endpoints 4,
 * Authentication 5, 7, 10), on hand-made observations; token values never appear in a verdict.
 */

function hidesSecrets(v: ClientVerdict): void {
  const shown = JSON.stringify(v);
  for (const s of SECRETS) expect(shown).not.toContain(s);
}

const head = (): Req[] => [unauthorized(), metadata(), register(), authorize(), exchange()];

/** The mid-session-expiry scenario: one call per token, then 401 invalid_token. */
function expiryFlow(renewal: Req[], retry: Req[] = [call(ACCESS_2)]): ClientEvidence {
  return evidence(runOf('mid-session-expiry', [...head(), call(ACCESS_1), call(ACCESS_1, 401), ...renewal, ...retry]));
}

describe('CTX-CLI-BEARER-EVERY', () => {
  it('passes the issued token on every resource request', () => expect(judge('CTX-CLI-BEARER-EVERY', evidence(runOf('standard', standardFlow())))).toEqual(PASS));

  it('fails a request without Authorization, a Basic one and a token never issued, hiding the tokens', () => {
    const flow = [...head(), call(ACCESS_1), { ...call(undefined, 401, `?access_token=${ACCESS_1}`) }, { ...call(undefined), headers: { Authorization: 'Basic dXNlcjpwYXNz' } }, call('not-a-token-we-issued', 401)];
    const v = judge('CTX-CLI-BEARER-EVERY', evidence(runOf('standard', flow)));
    expect(v).toMatchObject(
      failing(
        /^request #7 POST \/ctx carried no Authorization header \(it put the token in the query string instead\); the access token was issued by request #5 POST \/token; request #8 POST \/ctx carried Authorization with scheme Basic, not Bearer; request #9 POST \/ctx carried a bearer token the server had not issued to it$/,
      ),
    );
    hidesSecrets(v);
  });

  it('accepts the scheme in any letter case, and the tokens of a renewal', () => {
    const flow = [...head(), { ...call(ACCESS_1), headers: { Authorization: `bearer ${ACCESS_1}` } }, call(ACCESS_1, 401), refresh(), call(ACCESS_2)];
    expect(judge('CTX-CLI-BEARER-EVERY', evidence(runOf('mid-session-expiry', flow)))).toEqual(PASS);
  });
});

describe('CTX-CLI-TOKEN-NOT-IN-QUERY', () => {
  it('passes a session that keeps tokens out of URLs', () => expect(judge('CTX-CLI-TOKEN-NOT-IN-QUERY', evidence(runOf('standard', standardFlow())))).toEqual(PASS));

  it('fails the access token in a query string, whatever the parameter, saying which request issued it', () => {
    const flow = [...head(), call(ACCESS_1, 200, `?token=${ACCESS_1}`)];
    const v = judge('CTX-CLI-TOKEN-NOT-IN-QUERY', evidence(runOf('standard', flow)));
    expect(v).toMatchObject(failing(/^request #6 POST \/ctx carried the access token of request #5 POST \/token in its query string \(token=<hidden>\)$/));
    hidesSecrets(v);
  });

  it('fails a refresh token in a query string', () => {
    const flow = [...head(), call(ACCESS_1), call(ACCESS_1, 401), { ...refresh(), line: `POST /token?refresh_token=${REFRESH_1}` }, call(ACCESS_2)];
    const v = judge('CTX-CLI-TOKEN-NOT-IN-QUERY', evidence(runOf('mid-session-expiry', flow)));
    expect(v).toMatchObject(failing(/^request #8 POST \/token carried the refresh token of request #5 POST \/token in its query string \(refresh_token=<hidden>\)$/));
    hidesSecrets(v);
  });

  it('cannot judge a run that issued no token', () => {
    expect(judge('CTX-CLI-TOKEN-NOT-IN-QUERY', evidence(runOf('standard', [unauthorized(), metadata()])))).toEqual({ unjudged: 'the client obtained no access token in the standard scenario' });
  });
});

describe('CTX-CLI-EXPIRED-RESTART', () => {
  it('passes a refresh and a retry with the new token', () => expect(judge('CTX-CLI-EXPIRED-RESTART', expiryFlow([refresh()]))).toEqual(PASS));

  it('passes a new authorization instead of a refresh', () => {
    expect(judge('CTX-CLI-EXPIRED-RESTART', expiryFlow([authorize({ code: CODE_2, challenge: 'y'.repeat(43) }), exchange({ code: CODE_2 }, { access: ACCESS_2, refresh: REFRESH_2 })]))).toEqual(PASS);
  });

  it('fails a client that neither renews nor restarts', () => {
    expect(judge('CTX-CLI-EXPIRED-RESTART', expiryFlow([], [call(ACCESS_1, 401)]))).toMatchObject(
      failing(/^request #7 POST \/ctx was answered 401 \(the token expired\) and the client neither refreshed its token nor started the flow again \(it went on with #8 POST \/ctx -> 401\)$/),
    );
  });

  it('fails a client that renews but calls again with the old token', () => {
    const v = judge('CTX-CLI-EXPIRED-RESTART', expiryFlow([refresh()], [call(ACCESS_1, 401)]));
    expect(v).toMatchObject(failing(/^after request #7 POST \/ctx was answered 401 \(the token expired\), the client got a new token \(request #8 POST \/token\) but sent no resource request with it \(request #9 POST \/ctx did not carry it\)$/));
    hidesSecrets(v);
  });

  it('cannot judge a session without an expired token', () => {
    expect(judge('CTX-CLI-EXPIRED-RESTART', evidence(runOf('mid-session-expiry', standardFlow().slice(0, 6))))).toEqual({ unjudged: expect.stringMatching(/^no resource request carrying an issued token was answered 401/) });
  });
});

describe('CTX-CLI-REFRESH', () => {
  it('passes the refresh_token grant with the refresh token issued', () => expect(judge('CTX-CLI-REFRESH', expiryFlow([refresh()]))).toEqual(PASS));

  it('fails a new authorization though a refresh token was issued', () => {
    expect(judge('CTX-CLI-REFRESH', expiryFlow([authorize({ code: CODE_2 }), exchange({ code: CODE_2 }, { access: ACCESS_2 })]))).toMatchObject(
      failing(/^after request #7 POST \/ctx was answered 401 \(the token expired\), the client renewed with request #8 GET \/authorize \(a new authorization\) instead of the refresh_token grant, though request #5 POST \/token issued a refresh token$/),
    );
  });

  it('fails a refresh with another refresh token than the one issued, hiding both', () => {
    const v = judge('CTX-CLI-REFRESH', expiryFlow([{ ...refresh(REFRESH_2), status: 400, answer: { error: 'invalid_grant' } }], []));
    expect(v).toMatchObject(failing(/^request #8 POST \/token sent a refresh token other than the one request #5 POST \/token issued last$/));
    hidesSecrets(v);
  });

  it('cannot judge when no refresh token was issued', () => {
    const noRefresh = { ...exchange(), answer: { access_token: ACCESS_1, token_type: 'Bearer' } };
    const flow = [unauthorized(), metadata(), register(), authorize(), noRefresh, call(ACCESS_1), call(ACCESS_1, 401)];
    expect(judge('CTX-CLI-REFRESH', evidence(runOf('mid-session-expiry', flow)))).toEqual({ unjudged: expect.stringMatching(/^no token response before the expired token \(request #7 POST \/ctx\) issued a refresh token$/) });
  });
});

describe('CTX-CLI-REFRESH, when the client renews nothing', () => {
  it('is blocked by CTX-CLI-EXPIRED-RESTART (giving up is that rule\'s failure)', () => {
    expect(judge('CTX-CLI-REFRESH', expiryFlow([], []))).toEqual({ blockedBy: 'CTX-CLI-EXPIRED-RESTART', reason: expect.stringMatching(/^request #7 POST \/ctx was answered 401 \(the token expired\) and the client renewed nothing after it/) });
    expect(judge('CTX-CLI-EXPIRED-RESTART', expiryFlow([], []))).toMatchObject({ ok: false });
  });
});
