import { isFailed } from '../../../src/engine/checks/judged.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../reference/oauth/server/observation.js';
import { s256 } from '../../../reference/oauth/model/pkce.js';
import type { DeviceRun } from '../../../suites/oauth/checks/client-device-run.js';
import { issuedCodes, showsUserCode } from '../../../suites/oauth/checks/client-device-run.js';
import { judgeDeviceRestart, judgeGrantType, judgeNoSecret, judgePollAfterToken, judgePollExpiresIn, judgePollInterval, judgePollStop, judgePollStopDenied } from '../../../suites/oauth/checks/client-device-judges.js';
import { judgeHttpMethod } from '../../../suites/oauth/checks/client-method-judges.js';
import { judgeBearer, judgeRevalidateUser } from '../../../suites/oauth/checks/client-api-judges.js';
import { responseFields } from '../../../suites/oauth/checks/client-log.js';
import { loopbackTolerantMatch } from '../../../suites/oauth/checks/client-platform.js';
import { estimatedBits, generatedMutation, judgeStateUnguessable, tamperState, FIXED_MUTATIONS } from '../../../suites/oauth/checks/client-state-judges.js';
import { judgeDeviceScope, judgeWebScope } from '../../../suites/oauth/checks/client-scope-judges.js';
import { judgeAuthorizeClientId, judgeExchangeCode, judgeLoopbackLiteral, judgeRedirectUri } from '../../../suites/oauth/checks/client-web-judges.js';
import { PKCE_JUDGES } from '../../../suites/oauth/checks/client-pkce-judges.js';
import type { WebRun } from '../../../suites/oauth/checks/client-web-run.js';
import type { Verdict } from '../../../src/engine/checks/contract.js';

/** The client-side judges on hand-made platform logs: each passes, fails or declines exactly as documented. */

const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const env = { flow: 'device' as const, authUrl: 'http://127.0.0.1:1', apiUrl: 'http://127.0.0.1:1/api', clientId: 'app', clientSecret: 'secret', callbackUrl: 'http://127.0.0.1:2/callback', scope: 'repo read:user' };

let seq = 0;
function req(at: number, method: string, path: string, params: Record<string, string>, response: Record<string, unknown>, extra: Partial<ObservedRequest> = {}): ObservedRequest {
  return { seq: ++seq, at, method, path, query: {}, headers: {}, params, status: response['error'] ? 400 : 200, response: JSON.stringify(response), ...extra };
}
const start = (at: number, code = 'D1', interval = 1, scope = 'repo read:user', expiresIn = 900): ObservedRequest =>
  req(at, 'POST', '/login/device/code', { client_id: 'app', scope }, { device_code: code, user_code: 'ABCD-EFGH', verification_uri: 'http://127.0.0.1:1/login/device', interval, expires_in: expiresIn });
const poll = (at: number, answer: Record<string, unknown>, code = 'D1', over: Record<string, string> = {}): ObservedRequest =>
  req(at, 'POST', '/login/oauth/access_token', { client_id: 'app', device_code: code, grant_type: GRANT, ...over }, answer);
const pending = { error: 'authorization_pending' };
const token = { access_token: 'T1', token_type: 'bearer', scope: 'repo,read:user' };
const user = (at: number, authorization: string): ObservedRequest => req(at, 'GET', '/api/user', {}, { login: 'x' }, { headers: { authorization } });

function deviceRun(requests: ObservedRequest[], more: Partial<DeviceRun> = {}): DeviceRun {
  return { env, t0: 0, requests, issued: issuedCodes(requests), actions: [], unseenCodes: [], exit: { code: 0, signal: null }, stopped: false, endedAt: 60_000, ended: 'the client ended', endKind: 'exit', stdout: 'open http://127.0.0.1:1/login/device and enter ABCD-EFGH', stderr: '', ...more };
}
const state = (v: Verdict): string => ('unjudged' in v ? 'unjudged' : 'notApplicable' in v ? 'n/a' : isFailed(v) ? 'fail' : 'pass');

describe('poll interval judge', () => {
  it('passes gaps at the interval and fails one shorter than interval minus 250 ms', () => {
    expect(state(judgePollInterval(deviceRun([start(0), poll(100, pending), poll(1100, pending), poll(2100, token)])))).toBe('pass');
    expect(state(judgePollInterval(deviceRun([start(0), poll(100, pending), poll(851, token)])))).toBe('pass');
    expect(state(judgePollInterval(deviceRun([start(0), poll(100, pending), poll(849, token)])))).toBe('fail');
  });

  it('does not judge the gap between the device code request and the first poll', () => {
    expect(state(judgePollInterval(deviceRun([start(0), poll(1, pending), poll(1001, token)])))).toBe('pass');
  });

  it('holds polls to the raised interval after slow_down, for every later gap', () => {
    const slow = { error: 'slow_down', interval: 6 };
    expect(state(judgePollInterval(deviceRun([start(0), poll(0, pending), poll(1000, slow), poll(7000, pending), poll(13000, token)]), 2))).toBe('pass');
    expect(state(judgePollInterval(deviceRun([start(0), poll(0, pending), poll(1000, slow), poll(9000, pending), poll(10000, token)]), 2))).toBe('fail');
    expect(state(judgePollInterval(deviceRun([start(0), poll(0, pending), poll(1000, slow), poll(7000, token)]), 2))).toBe('unjudged');
  });

  it('leaves polls after a terminal answer to POLL-STOP', () => {
    expect(state(judgePollInterval(deviceRun([start(0), poll(0, pending), poll(1000, { error: 'access_denied' }), poll(1010, { error: 'access_denied' })])))).toBe('pass');
  });

  it('does not judge fewer than two polls', () => {
    expect(state(judgePollInterval(deviceRun([start(0), poll(0, token)])))).toBe('unjudged');
  });
});

describe('poll stop judges', () => {
  it('POLL-STOP fails a poll after expired_token and passes an end there; a poll after access_denied is POLL-STOP-DENIED\'s', () => {
    expect(state(judgePollStop(deviceRun([start(0), poll(0, pending), poll(1000, { error: 'expired_token' })]), 'expired_token'))).toBe('pass');
    expect(state(judgePollStop(deviceRun([start(0), poll(0, { error: 'expired_token' }), poll(1000, { error: 'expired_token' })]), 'expired_token'))).toBe('fail');
    expect(state(judgePollStop(deviceRun([start(0), poll(0, { error: 'access_denied' }), poll(1000, { error: 'access_denied' })], { endKind: 'budget', stopped: true })))).toBe('pass');
  });

  it('POLL-STOP-DENIED fails a poll after access_denied, passes an end there, and does not judge a run that was never denied', () => {
    expect(state(judgePollStopDenied(deviceRun([start(0), poll(0, pending), poll(1000, { error: 'access_denied' })])))).toBe('pass');
    expect(state(judgePollStopDenied(deviceRun([start(0), poll(0, { error: 'access_denied' }), poll(1000, { error: 'access_denied' })])))).toBe('fail');
    expect(state(judgePollStopDenied(deviceRun([start(0), poll(0, pending), poll(1000, token)])))).toBe('unjudged');
  });

  it('fails a client that ends or goes quiet while the code is pending, not one the harness stopped', () => {
    expect(state(judgePollStop(deviceRun([start(0), poll(0, pending), poll(1000, pending)])))).toBe('fail');
    expect(state(judgePollStop(deviceRun([start(0), poll(0, pending)], { endKind: 'quiet', stopped: true })))).toBe('fail');
    expect(state(judgePollStop(deviceRun([start(0), poll(0, pending)], { endKind: 'budget', stopped: true })))).toBe('pass');
  });

  it('does not judge a run that never reached the answer the case steers toward', () => {
    expect(state(judgePollStop(deviceRun([start(0), poll(0, { error: 'unsupported_grant_type' })]), 'expired_token'))).toBe('unjudged');
  });
});

describe('poll after token and after expires_in judges', () => {
  it('after token: passes an end at the token, fails one more poll of that code', () => {
    expect(state(judgePollAfterToken(deviceRun([start(0), poll(0, pending), poll(1000, token)])))).toBe('pass');
    expect(state(judgePollAfterToken(deviceRun([start(0), poll(0, token), poll(1000, { error: 'incorrect_device_code' })])))).toBe('fail');
    expect(state(judgePollAfterToken(deviceRun([start(0), poll(0, pending), poll(1000, { error: 'access_denied' })])))).toBe('unjudged');
  });
  it('after expires_in: fails a poll later than expires_in plus 5 s after issue', () => {
    expect(state(judgePollExpiresIn(deviceRun([start(0, 'D1', 2, 'repo', 3), poll(2000, pending), poll(8000, pending)])))).toBe('pass');
    expect(state(judgePollExpiresIn(deviceRun([start(0, 'D1', 2, 'repo', 3), poll(2000, pending), poll(8001, pending)])))).toBe('fail');
  });
  it('after expires_in: judged only when a pending code outlived its expiry in the watched run', () => {
    expect(state(judgePollExpiresIn(deviceRun([start(0, 'D1', 2, 'repo', 3), poll(2000, pending)], { endedAt: 2500 })))).toBe('unjudged');
    expect(state(judgePollExpiresIn(deviceRun([start(0, 'D1', 2, 'repo', 3), poll(2000, token)])))).toBe('unjudged');
  });
});

describe('HTTP method judge', () => {
  const api = (requests: ObservedRequest[]) => ({ requests, t0: 0 });
  it('POST for the token and device code endpoints, GET for /user; other API paths are not judged', () => {
    expect(state(judgeHttpMethod(api([start(0), poll(0, token), user(10, 'Bearer T1'), req(20, 'POST', '/api/other', {}, {})])))).toBe('pass');
    expect(state(judgeHttpMethod(api([req(0, 'GET', '/login/oauth/access_token', { code: 'c' }, { message: 'Not Found' })])))).toBe('fail');
    expect(state(judgeHttpMethod(api([req(0, 'GET', '/login/device/code', { client_id: 'app' }, {})])))).toBe('fail');
    expect(state(judgeHttpMethod(api([poll(0, token), req(10, 'POST', '/api/user', {}, {})])))).toBe('fail');
    expect(state(judgeHttpMethod(api([])))).toBe('unjudged');
  });
});

describe('device restart judge', () => {
  const expired = { error: 'expired_token' };
  it('passes an exit or a new device code, fails a client that stays on the dead code', () => {
    expect(state(judgeDeviceRestart(deviceRun([start(0), poll(0, expired)])))).toBe('pass');
    expect(state(judgeDeviceRestart(deviceRun([start(0), poll(0, expired), start(100, 'D2'), poll(1100, token, 'D2')])))).toBe('pass');
    expect(state(judgeDeviceRestart(deviceRun([start(0), poll(0, expired)], { stopped: true, endKind: 'watched' })))).toBe('fail');
  });
  it('does not judge a run without expired_token', () => {
    expect(state(judgeDeviceRestart(deviceRun([start(0), poll(0, token)])))).toBe('unjudged');
  });
});

describe('device request judges', () => {
  it('grant type: the exact URN, the client ID and an issued device code', () => {
    expect(state(judgeGrantType(deviceRun([start(0), poll(0, token)])))).toBe('pass');
    expect(state(judgeGrantType(deviceRun([start(0), poll(0, token, 'D1', { grant_type: 'device_code' })])))).toBe('fail');
    expect(state(judgeGrantType(deviceRun([start(0), poll(0, token, 'OTHER')])))).toBe('fail');
  });
  it('no secret: neither the parameter nor HTTP Basic', () => {
    expect(state(judgeNoSecret(deviceRun([start(0), poll(0, token)])))).toBe('pass');
    expect(state(judgeNoSecret(deviceRun([start(0), poll(0, token, 'D1', { client_secret: 'secret' })])))).toBe('fail');
    const basic = poll(0, token);
    basic.headers = { authorization: 'Basic YXBwOnNlY3JldA==' };
    expect(state(judgeNoSecret(deviceRun([start(0), basic])))).toBe('fail');
  });
  it('scope: space-delimited only', () => {
    expect(state(judgeDeviceScope(deviceRun([start(0), poll(0, token)])))).toBe('pass');
    expect(state(judgeDeviceScope(deviceRun([start(0, 'D1', 1, 'repo,read:user'), poll(0, token)])))).toBe('fail');
  });
  it('the user code counts as shown with or without its hyphen, in any case', () => {
    expect(showsUserCode('enter abcd-efgh now', 'ABCD-EFGH')).toBe(true);
    expect(showsUserCode('code: ABCDEFGH.', 'ABCD-EFGH')).toBe(true);
    expect(showsUserCode('code: ABCD-EFG', 'ABCD-EFGH')).toBe(false);
    expect(showsUserCode('XABCD-EFGH', 'ABCD-EFGH')).toBe(false);
  });
});

describe('token use judges', () => {
  const api = (requests: ObservedRequest[]) => ({ requests, t0: 0 });
  it('revalidation: GET /api/user with the token after the token, in any scheme', () => {
    expect(state(judgeRevalidateUser(api([poll(0, token), user(10, 'token T1')])))).toBe('pass');
    expect(state(judgeRevalidateUser(api([poll(0, token), user(10, 'Bearer OTHER')])))).toBe('fail');
    expect(state(judgeRevalidateUser(api([poll(0, pending)])))).toBe('unjudged');
  });
  it('bearer: every authenticated API call uses Bearer with an issued token', () => {
    expect(state(judgeBearer(api([poll(0, token), user(10, 'Bearer T1')])))).toBe('pass');
    expect(state(judgeBearer(api([poll(0, token), user(10, 'bearer T1')])))).toBe('pass');
    expect(state(judgeBearer(api([poll(0, token), user(10, 'token T1')])))).toBe('fail');
    expect(state(judgeBearer(api([poll(0, token), req(10, 'GET', '/api/user', {}, {}, { query: { access_token: 'T1' } })])))).toBe('fail');
    expect(state(judgeBearer(api([poll(0, token), req(10, 'POST', '/api/login/device/code', {}, {})])))).toBe('unjudged');
  });
});

function webRun(authorize: string, requests: ObservedRequest[] = []): WebRun {
  return { env: { ...env, flow: 'web' }, t0: 0, authorizeUrl: new URL(authorize), requests, exit: { code: 0, signal: null }, stopped: false, stdout: '', stderr: '' };
}
const exchange = (params: Record<string, string>): ObservedRequest => req(10, 'POST', '/login/oauth/access_token', params, token);

describe('web flow judges', () => {
  const verifier = 'v'.repeat(43);
  const base = `http://127.0.0.1:1/login/oauth/authorize?client_id=app&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/callback')}&state=s&scope=repo+read%3Auser`;
  it('redirect_uri in the authorization request and the same one in the exchange', () => {
    expect(state(judgeRedirectUri(webRun(base, [exchange({ redirect_uri: 'http://127.0.0.1:9/callback' })])))).toBe('pass');
    expect(state(judgeRedirectUri(webRun(base, [exchange({})])))).toBe('fail');
    expect(state(judgeRedirectUri(webRun(base)))).toBe('unjudged');
    expect(state(judgeRedirectUri(webRun('http://127.0.0.1:1/login/oauth/authorize?client_id=app')))).toBe('fail');
  });
  it('loopback literal: localhost fails, literals and no redirect_uri pass', () => {
    expect(state(judgeLoopbackLiteral(webRun(base)))).toBe('pass');
    expect(state(judgeLoopbackLiteral(webRun(base.replace('127.0.0.1%3A9', 'localhost%3A9'))))).toBe('fail');
    expect(state(judgeLoopbackLiteral(webRun('http://127.0.0.1:1/login/oauth/authorize?client_id=app&redirect_uri=http%3A%2F%2F%5B%3A%3A1%5D%3A9%2Fcb')))).toBe('pass');
  });
  it('PKCE: each statement judged on its own, the rules of the parameters not applying to a client that sends none', () => {
    const judge = (id: string, run: WebRun): string => state((PKCE_JUDGES[id] as (r: WebRun) => Verdict)(run));
    const all = (run: WebRun): Record<string, string> => Object.fromEntries(Object.keys(PKCE_JUDGES).map((id) => [id.replace('OAUTH-CLIENT-', ''), judge(id, run)]));
    const withPkce = (challenge: string | null, method: string | null): string =>
      `${base}${challenge === null ? '' : `&code_challenge=${challenge}`}${method === null ? '' : `&code_challenge_method=${method}`}`;
    const good = withPkce(s256(verifier), 'S256');
    const pass = { PKCE: 'pass', 'PKCE-METHOD-REQUIRED': 'pass', 'PKCE-CHALLENGE-REQUIRED': 'pass', 'PKCE-S256': 'pass', 'PKCE-CHALLENGE-LENGTH': 'pass', 'PKCE-VERIFIER-REQUIRED': 'pass', 'PKCE-VERIFIER-MATCH': 'pass' };
    expect(all(webRun(good, [exchange({ code_verifier: verifier })]))).toEqual(pass);
    expect(all(webRun(good, [exchange({ code_verifier: `${verifier}x` })]))).toEqual({ ...pass, 'PKCE-VERIFIER-MATCH': 'fail' });
    expect(all(webRun(good, [exchange({})]))).toEqual({ ...pass, 'PKCE-VERIFIER-REQUIRED': 'fail', 'PKCE-VERIFIER-MATCH': 'unjudged' });
    expect(all(webRun(withPkce(verifier, 'plain')))).toEqual({ ...pass, 'PKCE-S256': 'fail', 'PKCE-VERIFIER-REQUIRED': 'unjudged', 'PKCE-VERIFIER-MATCH': 'unjudged' });
    expect(all(webRun(withPkce(s256(verifier).slice(1), 'S256')))).toEqual({ ...pass, 'PKCE-CHALLENGE-LENGTH': 'fail', 'PKCE-VERIFIER-REQUIRED': 'unjudged', 'PKCE-VERIFIER-MATCH': 'unjudged' });
    expect(all(webRun(withPkce(s256(verifier), null)))).toEqual({ ...pass, 'PKCE-METHOD-REQUIRED': 'fail', 'PKCE-CHALLENGE-REQUIRED': 'n/a', 'PKCE-S256': 'n/a', 'PKCE-VERIFIER-REQUIRED': 'unjudged', 'PKCE-VERIFIER-MATCH': 'unjudged' });
    expect(all(webRun(withPkce(null, 'S256')))).toEqual({ ...pass, 'PKCE-METHOD-REQUIRED': 'n/a', 'PKCE-CHALLENGE-REQUIRED': 'fail', 'PKCE-CHALLENGE-LENGTH': 'n/a', 'PKCE-VERIFIER-REQUIRED': 'n/a', 'PKCE-VERIFIER-MATCH': 'n/a' });
    const none = 'n/a';
    expect(all(webRun(base, [exchange({})]))).toEqual({ PKCE: 'fail', 'PKCE-METHOD-REQUIRED': none, 'PKCE-CHALLENGE-REQUIRED': none, 'PKCE-S256': none, 'PKCE-CHALLENGE-LENGTH': none, 'PKCE-VERIFIER-REQUIRED': none, 'PKCE-VERIFIER-MATCH': none });
  });
  it('client_id: the registered one in the authorization request', () => {
    expect(state(judgeAuthorizeClientId(webRun(base)))).toBe('pass');
    expect(state(judgeAuthorizeClientId(webRun(base.replace('client_id=app', 'clientId=app'))))).toBe('fail');
    expect(state(judgeAuthorizeClientId(webRun(base.replace('client_id=app', 'client_id=other'))))).toBe('fail');
  });
  it('exchanged code: the one the delivered redirect carried', () => {
    const delivered = (run: WebRun): WebRun => ({ ...run, redirect: new URL('http://127.0.0.1:9/callback?code=abc123&state=s'), delivered: { url: 'http://127.0.0.1:9/callback?code=abc123&state=s', status: 200 } });
    expect(state(judgeExchangeCode(delivered(webRun(base, [exchange({ code: 'abc123' })]))))).toBe('pass');
    expect(state(judgeExchangeCode(delivered(webRun(base, [exchange({ code: 'abc12' })]))))).toBe('fail');
    expect(state(judgeExchangeCode(delivered(webRun(base))))).toBe('unjudged');
    expect(state(judgeExchangeCode(webRun(base, [exchange({ code: 'abc123' })])))).toBe('unjudged');
  });
  it('scope: spaces pass, commas fail', () => {
    expect(state(judgeWebScope(webRun(base)))).toBe('pass');
    expect(state(judgeWebScope(webRun(base.replace('repo+read', 'repo%2Cread'))))).toBe('fail');
  });
});

describe('state', () => {
  it('estimates entropy from length and alphabet', () => {
    expect(estimatedBits(['0123456789abcdef0123456789abcdef'])).toBe(128);
    expect(estimatedBits(['vsm5dxesv8e', '9cy1gxeqxul'])).toBe(57);
    expect(estimatedBits(['deadbeef'])).toBe(32);
  });
  it('needs two different states of 128 bits', () => {
    const run = (s: string): WebRun => webRun(`http://127.0.0.1:1/login/oauth/authorize?client_id=app&state=${s}`);
    const strong = (c: string): string => c.repeat(22) + 'Zz_-0123456789aBcDeFgHiJ';
    expect(state(judgeStateUnguessable([run(strong('a')), run(strong('b'))]))).toBe('pass');
    expect(state(judgeStateUnguessable([run(strong('a')), run(strong('a'))]))).toBe('fail');
    expect(state(judgeStateUnguessable([run('deadbeef'), run('cafebabe')]))).toBe('fail');
    expect(state(judgeStateUnguessable([run(strong('a'))]))).toBe('unjudged');
  });
  it('every tampering gives a redirect whose state differs from the genuine one', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...FIXED_MUTATIONS), generatedMutation), fc.stringMatching(/^[A-Za-z0-9_-]{0,50}$/), (m, genuine) => {
        const u = tamperState(m)(new URL(`http://127.0.0.1:9/cb?code=c&state=${encodeURIComponent(genuine)}`));
        expect(u.searchParams.get('state')).not.toBe(genuine);
        expect(u.searchParams.get('code')).toBe('c');
      }),
    );
  });
});

describe('harness platform conventions', () => {
  it('treats the loopback spellings as the registered host and keeps every other redirect rule', () => {
    const cb = 'http://127.0.0.1:4000/callback';
    expect(loopbackTolerantMatch(cb, 'http://localhost:5000/callback/x')).toMatchObject({ accepted: true, effective: 'http://localhost:5000/callback/x' });
    expect(loopbackTolerantMatch(cb, 'http://[::1]:5000/callback')).toMatchObject({ accepted: true });
    expect(loopbackTolerantMatch(cb, 'http://localhost:5000/other')).toMatchObject({ accepted: false });
    expect(loopbackTolerantMatch(cb, 'http://example.test:4000/callback')).toMatchObject({ accepted: false });
  });
  it('reads answers in all three formats', () => {
    expect(responseFields('{"error":"slow_down","interval":10}')).toEqual({ error: 'slow_down', interval: '10' });
    expect(responseFields('error=slow_down&interval=10')).toEqual({ error: 'slow_down', interval: '10' });
    expect(responseFields('<OAuth><error>slow_down</error><interval>10</interval></OAuth>')).toEqual({ error: 'slow_down', interval: '10' });
  });
});
