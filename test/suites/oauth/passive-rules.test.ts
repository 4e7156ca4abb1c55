/**
 * The oauth suite's passive rules (suites/oauth/passive/), each on small recordings: one that
 * keeps the rule, one that breaks it, and one that holds nothing the rule judges.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiTable } from '../../../src/engine/api/table.js';
import { matchRecording } from '../../../src/engine/passive/match-recording.js';
import { fromRoot } from '../../../src/paths.js';
import { loadHar } from '../../../src/targets/har/load-har.js';
import { s256 } from '../../../reference/oauth/model/pkce.js';
import { suite } from '../../../suites/oauth/index.js';
import { OAUTH_PASSIVE_RULES } from '../../../suites/oauth/passive/index.js';
import { CLIENT_LIVE_ONLY } from '../../../suites/oauth/passive/client-requests.js';
import { passiveRulesSentence } from '../../helpers/passive-rules-paragraph.js';
import { loadedSuite } from '../../helpers/suite-facts.js';
import { messages, outcome, outcomes, ruleJudge } from '../../helpers/rule-judge.js';
import { harEntry, harFile, type EntryInput } from '../../targets/har/har-builder.js';

const oauth = loadedSuite(suite);
const table = oauth.api as ApiTable;

const A = 'http://auth.test';
const NOW = Date.parse('2025-06-01T12:00:00Z');
const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

/** An entry started `at` ms after NOW. */
type Entry = EntryInput & { at?: number };
/** Recordings the tests below read themselves. */
const dir = mkdtempSync(join(tmpdir(), 'specgate-oauth-rules-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const judge = ruleJudge<Entry>('specgate-oauth-rules-', table, OAUTH_PASSIVE_RULES, (e) => ({ startedDateTime: new Date(NOW + (e.at ?? 0)).toISOString(), time: 10 }));

const form = (o: Record<string, string>): string => new URLSearchParams(o).toString();
/** A POST of a form to the token endpoint, answered `answer` (JSON when asked, else form-encoded). */
function token(params: Record<string, string>, answer: Record<string, string | number>, more: { at?: number; accept?: string; status?: number; body?: string; type?: string } = {}): Entry {
  const asJson = more.accept === 'application/json';
  return {
    method: 'POST',
    url: `${A}/login/oauth/access_token`,
    requestHeaders: { ...FORM, ...(more.accept ? { accept: more.accept } : {}) },
    requestBody: form(params),
    status: more.status ?? 200,
    responseHeaders: { 'content-type': more.type ?? (asJson ? 'application/json' : 'application/x-www-form-urlencoded') },
    body: more.body ?? (asJson ? JSON.stringify(answer) : form(Object.fromEntries(Object.entries(answer).map(([k, v]) => [k, String(v)])))),
    ...(more.at !== undefined ? { at: more.at } : {}),
  };
}
const exchange = (extra: Record<string, string> = {}): Record<string, string> => ({ client_id: 'app', client_secret: 's3cr3t', code: 'c0de', ...extra });
const poll = (extra: Record<string, string> = {}): Record<string, string> => ({ client_id: 'dev', device_code: 'd'.repeat(40), grant_type: GRANT, ...extra });
const TOKEN = { access_token: 'gho_abc', scope: 'repo,read:user', token_type: 'bearer' };
const DEVICE = { device_code: 'd'.repeat(40), user_code: 'ABCD-1234', verification_uri: `${A}/login/device`, expires_in: 900, interval: 5 };
function deviceCode(answer: Record<string, string | number> = DEVICE, more: { at?: number; accept?: string; type?: string; body?: string } = {}): Entry {
  const accept = more.accept ?? 'application/json';
  return {
    method: 'POST',
    url: `${A}/login/device/code`,
    requestHeaders: { ...FORM, accept },
    requestBody: form({ client_id: 'dev', scope: 'repo read:user' }),
    status: 200,
    responseHeaders: { 'content-type': more.type ?? (accept === 'application/json' ? 'application/json' : 'application/x-www-form-urlencoded') },
    body: more.body ?? (accept === 'application/json' ? JSON.stringify(answer) : form(Object.fromEntries(Object.entries(answer).map(([k, v]) => [k, String(v)])))),
    ...(more.at !== undefined ? { at: more.at } : {}),
  };
}
const pollAnswer = (at: number, error: string | Record<string, string | number>, params: Record<string, string> = poll()): Entry =>
  token(params, typeof error === 'string' ? { error } : error, { at, accept: 'application/json' });
const authorize = (query: Record<string, string>, at = 0): Entry => ({ url: `${A}/login/oauth/authorize?${form(query)}`, status: 200, responseHeaders: { 'content-type': 'text/html' }, body: '<form></form>', at });
const decision = (location: string, at = 10): Entry => ({ method: 'POST', url: `${A}/login/oauth/authorize/decision`, requestHeaders: FORM, requestBody: 'pending=1', status: 302, responseHeaders: { location }, at });
const user = (authorization: string | undefined, status = 200, body = '{"login":"octo"}', at = 0): Entry => ({ url: `${A}/api/user`, requestHeaders: authorization ? { authorization } : {}, status, responseHeaders: JSON_TYPE, body, at });

describe('every rule judges only requirements of the catalog', () => {
  it('the requirements named are in requirements.yaml and not excluded', () => {
    const ids = new Map(oauth.requirements.map((r) => [r.id, r]));
    for (const [name, rule] of Object.entries(OAUTH_PASSIVE_RULES)) for (const id of rule.requirements) expect(ids.has(id) && ids.get(id)?.excluded === undefined, `${name}: ${id}`).toBe(true);
  });
  it('the client rule judges every client requirement the live judges decide, but those only a live run shows', () => {
    const client = oauth.requirements.filter((r) => r.side === 'client').map((r) => r.id);
    const judged = OAUTH_PASSIVE_RULES['client-requests']?.requirements ?? [];
    expect([...judged, ...Object.keys(CLIENT_LIVE_ONLY)].sort()).toEqual(client.sort());
  });
});

describe('the API table', () => {
  it('matches the endpoints below any origin, {api_url} below a path of its own', () => {
    const file = join(dir, 'match.har');
    writeFileSync(file, JSON.stringify(harFile([authorize({ client_id: 'a' }), token(exchange(), TOKEN), deviceCode(), user('Bearer x'), { url: `${A}/login/device` }, { url: `${A}/settings/connections/applications/app` }, { method: 'OPTIONS', url: `${A}/login/oauth/authorize` }].map((e) => harEntry(e)))));
    const recording = loadHar(file);
    const m = matchRecording(table, recording);
    expect([...m.byOperation.keys()].sort()).toEqual(['accessToken', 'authorize', 'authorizePreflight', 'deviceCode', 'deviceVerification', 'reviewApplication', 'user']);
    expect(m.unmatched).toEqual([]);
  });
});

describe('token-answers', () => {
  const only = ['OAUTH-TOKEN-FORMAT-FORM', 'OAUTH-TOKEN-FORMAT-JSON', 'OAUTH-TOKEN-FORMAT-XML', 'OAUTH-DEVICE-TOKEN-FORMAT-JSON', 'OAUTH-TOKEN-TYPE-BEARER', 'OAUTH-TOKEN-SCOPE-COMMA'];
  const xml = '<?xml version="1.0"?><OAuth><token_type>bearer</token_type><scope>repo</scope><access_token>gho</access_token></OAuth>';
  it('each answer in the format asked, with its fields, bearer, scopes comma-separated', () => {
    const v = judge('token-answers', [token(exchange(), TOKEN), token(exchange(), TOKEN, { accept: 'application/json' }), token(exchange(), {}, { accept: 'application/xml', type: 'application/xml', body: xml }), token(poll(), { ...TOKEN, access_token: '***' }, { accept: 'application/json' })]);
    expect(outcomes(v, only)).toEqual(Object.fromEntries(only.map((id) => [id, 'pass'])));
  });
  it('a missing field, JSON when form was asked, another token_type and scopes with spaces fail', () => {
    const v = judge('token-answers', [
      token(exchange(), { access_token: 'a', token_type: 'bearer' }),
      token(exchange(), TOKEN, { accept: 'application/json', type: 'application/x-www-form-urlencoded', body: form(TOKEN) }),
      token(exchange(), {}, { accept: 'application/xml', type: 'application/xml', body: xml.replace('<scope>repo</scope>', '') }),
      token(poll(), { ...TOKEN, token_type: 'Bearer', scope: 'repo read:user' }, { accept: 'application/json' }),
    ]);
    expect(outcomes(v, only)).toEqual({ 'OAUTH-TOKEN-FORMAT-FORM': 'fail 0', 'OAUTH-TOKEN-FORMAT-JSON': 'fail 1', 'OAUTH-TOKEN-FORMAT-XML': 'fail 2', 'OAUTH-DEVICE-TOKEN-FORMAT-JSON': 'pass', 'OAUTH-TOKEN-TYPE-BEARER': 'fail 3', 'OAUTH-TOKEN-SCOPE-COMMA': 'fail 3' });
  });
  it('errors and a single scope judge nothing', () => {
    const v = judge('token-answers', [pollAnswer(0, 'authorization_pending'), token(exchange(), { error: 'bad_verification_code' })]);
    expect(Object.values(outcomes(v)).every((o) => o === 'untested')).toBe(true);
    expect(v['OAUTH-TOKEN-SCOPE-COMMA']?.lacking).toMatch(/several scopes/);
    expect(outcomes(judge('token-answers', [token(exchange(), { ...TOKEN, scope: 'repo' })]), ['OAUTH-TOKEN-SCOPE-COMMA'])).toEqual({ 'OAUTH-TOKEN-SCOPE-COMMA': 'untested' });
  });
});

describe('device-code-answers', () => {
  const values = ['OAUTH-DEVICE-CODE-LENGTH', 'OAUTH-DEVICE-USER-CODE-FORMAT', 'OAUTH-DEVICE-VERIFICATION-URI', 'OAUTH-DEVICE-EXPIRES-IN', 'OAUTH-DEVICE-INTERVAL'];
  it('the format asked for and the spec values pass; a masked device_code leaves its length untested', () => {
    const v = judge('device-code-answers', [deviceCode(), deviceCode(DEVICE, { accept: '*/*' })]);
    expect(outcomes(v)).toEqual({ 'OAUTH-DEVICE-FORMAT-FORM': 'pass', 'OAUTH-DEVICE-FORMAT-JSON': 'pass', 'OAUTH-DEVICE-FORMAT-XML': 'untested', ...Object.fromEntries(values.map((id) => [id, 'pass'])) });
    const hidden = judge('device-code-answers', [deviceCode({ ...DEVICE, device_code: '***' })]);
    expect(outcome(hidden['OAUTH-DEVICE-CODE-LENGTH'])).toBe('untested');
    expect(hidden['OAUTH-DEVICE-CODE-LENGTH']?.lacking).toMatch(/masks device_code/);
  });
  it('a string interval in JSON, and each value off, fail', () => {
    const v = judge('device-code-answers', [deviceCode({ ...DEVICE, interval: '5' }), deviceCode({ device_code: 'short', user_code: 'ABCD1234', verification_uri: 'http://elsewhere.test/device', expires_in: 600, interval: 2.5 })]);
    expect(outcomes(v)).toEqual({ 'OAUTH-DEVICE-FORMAT-FORM': 'untested', 'OAUTH-DEVICE-FORMAT-JSON': 'fail 0', 'OAUTH-DEVICE-FORMAT-XML': 'untested', ...Object.fromEntries(values.map((id) => [id, 'fail 1'])) });
  });
  it('without a device authorization answered with a code nothing is judged', () => {
    const v = judge('device-code-answers', [{ ...deviceCode({ error: 'device_flow_disabled' }) }]);
    expect(Object.values(outcomes(v)).every((o) => o === 'untested')).toBe(true);
  });
});

describe('device-polls', () => {
  const masked = poll({ device_code: '***' });
  it('slow_down for a poll sooner than the interval, with the interval plus 5, then the raised interval held; expired_token after expires_in naming token_expired', () => {
    const v = judge('device-polls', [
      deviceCode({ ...DEVICE, device_code: '***', expires_in: 900 }),
      pollAnswer(5_000, 'authorization_pending', masked),
      pollAnswer(6_000, { error: 'slow_down', interval: 10 }, masked),
      pollAnswer(12_000, { error: 'slow_down', interval: 15 }, masked),
      pollAnswer(27_000, 'authorization_pending', masked),
      pollAnswer(901_000, { error: 'expired_token', error_description: 'the device code expired (token_expired)' }, masked),
      pollAnswer(902_000, 'incorrect_client_credentials', { device_code: 'x', grant_type: GRANT }),
    ]);
    expect(outcomes(v)).toEqual({ 'OAUTH-DEVICE-SLOW-DOWN': 'pass', 'OAUTH-DEVICE-INTERVAL-RAISED': 'pass', 'OAUTH-DEVICE-SLOW-DOWN-INTERVAL': 'pass', 'OAUTH-DEVICE-EXPIRED-TOKEN': 'pass', 'OAUTH-DEVICE-EXPIRED-DESCRIPTION': 'pass', 'OAUTH-DEVICE-INCORRECT-CLIENT': 'pass' });
  });
  it('pending to a fast poll, a wrong new interval, pending after expires_in, a bare expired_token and another error without client_id fail', () => {
    const v = judge('device-polls', [
      deviceCode({ ...DEVICE, expires_in: 900 }),
      pollAnswer(5_000, 'authorization_pending'),
      pollAnswer(6_000, 'authorization_pending'),
      pollAnswer(11_000, { error: 'slow_down', interval: 6 }),
      pollAnswer(13_000, 'authorization_pending'),
      pollAnswer(905_000, 'authorization_pending'),
      pollAnswer(906_000, 'expired_token', poll({ device_code: 'e'.repeat(40) })),
      pollAnswer(907_000, 'incorrect_device_code', { device_code: 'x', grant_type: GRANT }),
    ]);
    expect(outcomes(v)).toEqual({ 'OAUTH-DEVICE-SLOW-DOWN': 'fail 2', 'OAUTH-DEVICE-INTERVAL-RAISED': 'fail 4', 'OAUTH-DEVICE-SLOW-DOWN-INTERVAL': 'fail 3', 'OAUTH-DEVICE-EXPIRED-TOKEN': 'fail 5', 'OAUTH-DEVICE-EXPIRED-DESCRIPTION': 'fail 6', 'OAUTH-DEVICE-INCORRECT-CLIENT': 'fail 7' });
    // a finding about a pair names the later poll and the earlier entry it is judged against
    expect(messages(v['OAUTH-DEVICE-SLOW-DOWN'])).toEqual([expect.stringContaining('1000 ms after the previous one (entry 1)')]);
    expect(messages(v['OAUTH-DEVICE-INTERVAL-RAISED'])).toEqual([expect.stringMatching(/2000 ms after the previous one \(entry 3\).*raised by slow_down \(entry 3\)/)]);
    expect(messages(v['OAUTH-DEVICE-SLOW-DOWN-INTERVAL'])).toEqual([expect.stringContaining('not 5 (the interval entry 0 gave) + 5')]);
    expect(messages(v['OAUTH-DEVICE-EXPIRED-TOKEN'])).toEqual([expect.stringContaining('issued (entry 0)')]);
  });
  it('polls at the interval, or without their device authorization, judge nothing', () => {
    const v = judge('device-polls', [pollAnswer(0, 'authorization_pending'), pollAnswer(1_000, 'authorization_pending')]);
    expect(Object.values(outcomes(v)).every((o) => o === 'untested')).toBe(true);
    expect(v['OAUTH-DEVICE-SLOW-DOWN']?.lacking).toMatch(/interval it shows/);
    const polite = judge('device-polls', [deviceCode(), pollAnswer(5_000, 'authorization_pending'), pollAnswer(10_000, TOKEN)]);
    expect(outcome(polite['OAUTH-DEVICE-SLOW-DOWN'])).toBe('untested');
  });
});

describe('authorize-redirects', () => {
  it('the redirect after the decision carries a (masked) code and the state sent', () => {
    const v = judge('authorize-redirects', [authorize({ client_id: 'app', state: 'st-1' }), decision('http://127.0.0.1:9/cb?code=***&state=st-1'), authorize({ client_id: 'app' }, 20), { url: `${A}/login/oauth/authorize?client_id=app`, status: 302, responseHeaders: { location: 'http://127.0.0.1:9/cb?code=abc' }, at: 30 }]);
    expect(outcomes(v)).toEqual({ 'OAUTH-AUTHZ-REDIRECT-CODE': 'pass', 'OAUTH-AUTHZ-STATE-ECHO': 'pass' });
    expect(v['OAUTH-AUTHZ-REDIRECT-CODE']?.observations).toBe(2);
  });
  it('another state, or no code, fails; a refusal is not judged', () => {
    const v = judge('authorize-redirects', [authorize({ client_id: 'app', state: 'st-1' }), decision('http://127.0.0.1:9/cb?code=abc&state=st-2'), authorize({ client_id: 'app', state: 'st-3' }, 20), decision('http://127.0.0.1:9/cb?state=st-3&code=', 30), authorize({ state: 'x' }, 40), decision('http://127.0.0.1:9/cb?error=access_denied&state=x', 50)]);
    expect(outcomes(v)).toEqual({ 'OAUTH-AUTHZ-REDIRECT-CODE': 'fail 3', 'OAUTH-AUTHZ-STATE-ECHO': 'fail 1' });
    expect(messages(v['OAUTH-AUTHZ-STATE-ECHO'])).toEqual(['the redirect carries another state than the authorization request (entry 0) sent']);
    expect(messages(v['OAUTH-AUTHZ-REDIRECT-CODE'])).toEqual(['the redirect after the user accepted the authorization request (entry 2) carries no code']);
  });
  it('without a redirect back to the application nothing is judged', () => {
    const v = judge('authorize-redirects', [authorize({ client_id: 'app', state: 's' }), decision(`${A}/login/oauth/authorize?client_id=app`)]);
    expect(outcomes(v)).toEqual({ 'OAUTH-AUTHZ-REDIRECT-CODE': 'untested', 'OAUTH-AUTHZ-STATE-ECHO': 'untested' });
  });
});

describe('code-exchanges', () => {
  const verifier = 'v'.repeat(43);
  const redirect = 'http://127.0.0.1:8123/callback';
  const asked = (state: string, at: number): Entry[] => [authorize({ client_id: 'app', redirect_uri: redirect, state, code_challenge: s256(verifier), code_challenge_method: 'S256' }, at), decision(`${redirect}?code=c-${state}&state=${state}`, at + 10)];
  const swap = (state: string, at: number, params: Record<string, string>, answer: Record<string, string> = TOKEN): Entry => token(exchange({ code: `c-${state}`, redirect_uri: redirect, code_verifier: verifier, ...params }), answer, { at, accept: 'application/json' });
  it('refusals of another redirect_uri, of a missing or wrong verifier, of a late code and of a code used again pass', () => {
    const refused = { error: 'bad_verification_code' };
    const v = judge('code-exchanges', [
      ...asked('a', 0), swap('a', 20, { redirect_uri: `${redirect}/other` }, refused), swap('a', 30, {}), swap('a', 40, {}, refused),
      ...asked('b', 100), swap('b', 120, { code_verifier: '' }, refused),
      ...asked('c', 200), swap('c', 220, { code_verifier: 'w'.repeat(43) }, refused),
      ...asked('d', 300), swap('d', 300 + 11 * 60_000, {}, refused),
    ]);
    expect(outcomes(v)).toEqual({ 'OAUTH-TOKEN-REDIRECT-MATCH': 'pass', 'OAUTH-PKCE-VERIFIER-REQUIRED': 'pass', 'OAUTH-PKCE-VERIFIER-MATCH': 'pass', 'OAUTH-CODE-EXPIRY': 'pass', 'OAUTH-CODE-SINGLE-USE': 'pass' });
  });
  it('a token for each of them fails', () => {
    const v = judge('code-exchanges', [
      ...asked('a', 0), swap('a', 20, { redirect_uri: `${redirect}/other` }), swap('a', 30, {}),
      ...asked('b', 100), swap('b', 120, { code_verifier: '' }),
      ...asked('c', 200), swap('c', 220, { code_verifier: 'w'.repeat(43) }),
      ...asked('d', 300), swap('d', 300 + 11 * 60_000, {}),
    ]);
    expect(outcomes(v)).toEqual({ 'OAUTH-TOKEN-REDIRECT-MATCH': 'fail 2', 'OAUTH-PKCE-VERIFIER-REQUIRED': 'fail 6', 'OAUTH-PKCE-VERIFIER-MATCH': 'fail 9', 'OAUTH-CODE-EXPIRY': 'fail 12', 'OAUTH-CODE-SINGLE-USE': 'fail 3' });
    // each names the earlier exchange it compares the code exchange with
    expect(messages(v['OAUTH-TOKEN-REDIRECT-MATCH'])).toEqual([expect.stringContaining('authorization request that issued the code (entry 0)')]);
    expect(messages(v['OAUTH-PKCE-VERIFIER-REQUIRED'])).toEqual([expect.stringContaining('with code_challenge (entry 4)')]);
    expect(messages(v['OAUTH-PKCE-VERIFIER-MATCH'])).toEqual([expect.stringContaining('its authorization request (entry 7)')]);
    expect(messages(v['OAUTH-CODE-EXPIRY'])).toEqual([expect.stringContaining('the redirect that issued it (entry 11)')]);
    expect(messages(v['OAUTH-CODE-SINGLE-USE'])).toEqual([expect.stringContaining('after it had got a token (entry 2)')]);
  });
  it('a good client, or masked codes and verifiers, give nothing to judge', () => {
    const good = judge('code-exchanges', [...asked('a', 0), swap('a', 20, {})]);
    expect(Object.values(outcomes(good)).every((o) => o === 'untested')).toBe(true);
    const hidden = judge('code-exchanges', [authorize({ client_id: 'app', redirect_uri: redirect, state: 's', code_challenge: s256(verifier), code_challenge_method: 'S256' }), decision(`${redirect}?code=***&state=s`), token(exchange({ code: '***', redirect_uri: `${redirect}/x`, code_verifier: '***' }), TOKEN, { at: 20, accept: 'application/json' })]);
    // linked by order: the masked code is the latest issued to the client_id
    expect(outcomes(hidden)).toEqual({ 'OAUTH-TOKEN-REDIRECT-MATCH': 'fail 2', 'OAUTH-PKCE-VERIFIER-REQUIRED': 'untested', 'OAUTH-PKCE-VERIFIER-MATCH': 'untested', 'OAUTH-CODE-EXPIRY': 'untested', 'OAUTH-CODE-SINGLE-USE': 'untested' });
    expect(hidden['OAUTH-PKCE-VERIFIER-MATCH']?.lacking).toMatch(/masks code_verifier/);
    expect(hidden['OAUTH-CODE-SINGLE-USE']?.lacking).toMatch(/masks the codes/);
  });
});

describe('api-user', () => {
  it('a user for a bearer token (masked whole or not), an error status without one', () => {
    expect(outcomes(judge('api-user', [user('Bearer gho'), user('***'), user(undefined, 401, '{}')]))).toEqual({ 'OAUTH-API-USER-BEARER': 'pass', 'OAUTH-API-USER-TOKEN-REQUIRED': 'pass' });
  });
  it('a 2xx without a user, or an answer without a token, fails', () => {
    expect(outcomes(judge('api-user', [user('Bearer gho', 200, '[]'), user(undefined)]))).toEqual({ 'OAUTH-API-USER-BEARER': 'fail 0', 'OAUTH-API-USER-TOKEN-REQUIRED': 'fail 1' });
  });
  it('refused tokens judge nothing', () => {
    expect(outcomes(judge('api-user', [user('Bearer old', 401, '{}')]))).toEqual({ 'OAUTH-API-USER-BEARER': 'untested', 'OAUTH-API-USER-TOKEN-REQUIRED': 'untested' });
  });
});

describe('client-requests', () => {
  const verifier = 'v'.repeat(43);
  const challenge = s256(verifier);
  const redirect = 'http://127.0.0.1:8123/callback';
  /** One web flow as a good client records it: authorize (through the recorder), redirect, exchange, GET /user. */
  const web = (state: string, at: number, over: { query?: Record<string, string>; exchange?: Record<string, string>; userAuth?: string } = {}): Entry[] => [
    authorize({ client_id: 'app', redirect_uri: redirect, scope: 'repo read:user', state, code_challenge: challenge, code_challenge_method: 'S256', ...over.query }, at),
    decision(`${redirect}?code=c-${state}&state=${state}`, at + 10),
    token(exchange({ code: `c-${state}`, redirect_uri: redirect, code_verifier: verifier, ...over.exchange }), { ...TOKEN, access_token: `tok-${state}` }, { at: at + 20, accept: 'application/json' }),
    user(over.userAuth ?? `Bearer tok-${state}`, 200, '{"login":"octo"}', at + 30),
  ];
  const device = (at: number, gaps: number[], last: Record<string, string | number> | string = TOKEN): Entry[] => {
    let t = at;
    const polls = gaps.map((g, i) => {
      t += g;
      return pollAnswer(t, i === gaps.length - 1 ? last : 'authorization_pending', poll({ device_code: '***' }));
    });
    return [deviceCode({ ...DEVICE, device_code: '***', interval: 5 }, { at }), ...polls, user('Bearer gho_abc', 200, '{"login":"octo"}', t + 100)];
  };
  const webIds = ['OAUTH-CLIENT-AUTHZ-CLIENT-ID', 'OAUTH-CLIENT-EXCHANGE-CODE', 'OAUTH-CLIENT-REDIRECT-URI', 'OAUTH-CLIENT-LOOPBACK-LITERAL', 'OAUTH-CLIENT-PKCE', 'OAUTH-CLIENT-PKCE-METHOD-REQUIRED', 'OAUTH-CLIENT-PKCE-CHALLENGE-REQUIRED', 'OAUTH-CLIENT-PKCE-S256', 'OAUTH-CLIENT-PKCE-CHALLENGE-LENGTH', 'OAUTH-CLIENT-PKCE-VERIFIER-REQUIRED', 'OAUTH-CLIENT-PKCE-VERIFIER-MATCH', 'OAUTH-CLIENT-SECRET', 'OAUTH-CLIENT-STATE', 'OAUTH-CLIENT-SCOPE-SPACES', 'OAUTH-CLIENT-HTTP-METHOD', 'OAUTH-CLIENT-REVALIDATE-USER', 'OAUTH-CLIENT-BEARER'];
  const deviceIds = ['OAUTH-CLIENT-DEVICE-GRANT-TYPE', 'OAUTH-CLIENT-DEVICE-NO-SECRET', 'OAUTH-CLIENT-POLL-INTERVAL', 'OAUTH-CLIENT-POLL-AFTER-TOKEN'];

  it('two good web flows and a good device flow pass what they show', () => {
    const v = judge('client-requests', [...web('s'.repeat(43), 0), ...web('t'.repeat(43), 1_000), ...device(2_000, [5_000, 5_000, 5_000])]);
    expect(outcomes(v, [...webIds, ...deviceIds])).toEqual(Object.fromEntries([...webIds, ...deviceIds].map((id) => [id, 'pass'])));
    // a terminal answer the flow never got, and a code that never expired, are not judged
    expect(outcomes(v, ['OAUTH-CLIENT-POLL-STOP', 'OAUTH-CLIENT-POLL-STOP-DENIED', 'OAUTH-CLIENT-POLL-EXPIRES-IN', 'OAUTH-CLIENT-DEVICE-RESTART'])).toEqual({ 'OAUTH-CLIENT-POLL-STOP': 'untested', 'OAUTH-CLIENT-POLL-STOP-DENIED': 'untested', 'OAUTH-CLIENT-POLL-EXPIRES-IN': 'untested', 'OAUTH-CLIENT-DEVICE-RESTART': 'untested' });
  });
  it('each deviation a recording shows fails its requirement', () => {
    const plain = web('p'.repeat(43), 0, { query: { code_challenge_method: 'plain', redirect_uri: 'http://localhost:8123/callback', scope: 'repo,read:user' }, exchange: { redirect_uri: 'http://localhost:8123/cb', code: 'other', client_secret: '' } });
    const stateless = web('', 1_000, { query: { state: '' } });
    const v = judge('client-requests', [...plain, ...stateless, ...device(2_000, [5_000, 1_000, 5_000])]);
    expect(outcomes(v, ['OAUTH-CLIENT-PKCE-S256', 'OAUTH-CLIENT-LOOPBACK-LITERAL', 'OAUTH-CLIENT-SCOPE-SPACES', 'OAUTH-CLIENT-REDIRECT-URI', 'OAUTH-CLIENT-EXCHANGE-CODE', 'OAUTH-CLIENT-SECRET', 'OAUTH-CLIENT-STATE', 'OAUTH-CLIENT-POLL-INTERVAL'])).toEqual({
      'OAUTH-CLIENT-PKCE-S256': 'fail 0',
      'OAUTH-CLIENT-LOOPBACK-LITERAL': 'fail 0',
      'OAUTH-CLIENT-SCOPE-SPACES': 'fail 0',
      'OAUTH-CLIENT-REDIRECT-URI': 'fail 2',
      'OAUTH-CLIENT-EXCHANGE-CODE': 'fail 2',
      'OAUTH-CLIENT-SECRET': 'fail 2',
      'OAUTH-CLIENT-STATE': 'fail 4',
      // the poll sent too soon (entry 10, 1 s after entry 9), not the device code request (entry 8)
      'OAUTH-CLIENT-POLL-INTERVAL': 'fail 10',
    });
    expect(messages(v['OAUTH-CLIENT-POLL-INTERVAL'])).toEqual([expect.stringMatching(/^poll 2 of a device code came 1000 ms after the previous one.*\(the poll before it, of the same device code, is entry 9\)$/)]);
    expect(messages(v['OAUTH-CLIENT-EXCHANGE-CODE'])).toEqual([expect.stringContaining('(the redirect that delivered the code is entry 1)')]);
    expect(messages(v['OAUTH-CLIENT-REDIRECT-URI'])).toEqual([expect.stringContaining('(the authorization request is entry 0)')]);
  });
  it('a secret in a device poll, a poll after the token, a token in the query and a method of its own fail', () => {
    const [start, p1, p2, u] = device(0, [5_000, 5_000]) as [Entry, Entry, Entry, Entry];
    const secret = { ...p1, requestBody: form(poll({ device_code: '***', client_secret: '***' })) };
    const after = pollAnswer(15_000, 'authorization_pending', poll({ device_code: '***' }));
    const get = { url: `${A}/login/oauth/access_token?client_id=app`, status: 404, at: 16_000 };
    const query = { ...u, url: `${A}/api/user?access_token=gho_abc`, requestHeaders: {}, at: 17_000 };
    const v = judge('client-requests', [start, secret, p2, after, get, query]);
    // the poll after the token (entry 3), not the device code request (entry 0)
    expect(outcomes(v, ['OAUTH-CLIENT-DEVICE-NO-SECRET', 'OAUTH-CLIENT-POLL-AFTER-TOKEN', 'OAUTH-CLIENT-HTTP-METHOD', 'OAUTH-CLIENT-BEARER'])).toEqual({ 'OAUTH-CLIENT-DEVICE-NO-SECRET': 'fail 1', 'OAUTH-CLIENT-POLL-AFTER-TOKEN': 'fail 3', 'OAUTH-CLIENT-HTTP-METHOD': 'fail 4', 'OAUTH-CLIENT-BEARER': 'fail 5' });
    expect(messages(v['OAUTH-CLIENT-POLL-AFTER-TOKEN'])).toEqual([expect.stringContaining('(the poll before it, of the same device code, is entry 2)')]);
  });
  it('a failure over the polls of a device code names the poll that shows it: slow_down not honoured, a poll after expired_token, after access_denied, after expires_in', () => {
    const masked = poll({ device_code: '***' });
    // interval 5, slow_down raises it to 10: the poll 6 s after the slow_down is too soon
    const slow = judge('client-requests', [deviceCode({ ...DEVICE, device_code: '***' }), pollAnswer(5_000, 'authorization_pending', masked), pollAnswer(10_000, { error: 'slow_down', interval: 10 }, masked), pollAnswer(16_000, 'authorization_pending', masked), pollAnswer(26_000, TOKEN, masked)]);
    expect(outcomes(slow, ['OAUTH-CLIENT-POLL-INTERVAL'])).toEqual({ 'OAUTH-CLIENT-POLL-INTERVAL': 'fail 3' });
    expect(messages(slow['OAUTH-CLIENT-POLL-INTERVAL'])).toEqual([expect.stringMatching(/6000 ms after the previous one.*after slow_down.*is entry 2\)$/)]);
    // expires_in 10: the code expires, the client polls on; then a second code is denied and polled again
    const expired = judge('client-requests', [
      deviceCode({ ...DEVICE, device_code: '***', expires_in: 10 }),
      pollAnswer(5_000, 'authorization_pending', masked),
      pollAnswer(11_000, 'expired_token', masked),
      pollAnswer(17_000, 'expired_token', masked),
      deviceCode({ ...DEVICE, device_code: '***' }, { at: 20_000 }),
      pollAnswer(25_000, 'access_denied', masked),
      pollAnswer(30_000, 'access_denied', masked),
    ]);
    expect(outcomes(expired, ['OAUTH-CLIENT-POLL-STOP', 'OAUTH-CLIENT-POLL-STOP-DENIED', 'OAUTH-CLIENT-POLL-EXPIRES-IN'])).toEqual({ 'OAUTH-CLIENT-POLL-STOP': 'fail 3', 'OAUTH-CLIENT-POLL-STOP-DENIED': 'fail 6', 'OAUTH-CLIENT-POLL-EXPIRES-IN': 'fail 3' });
    expect(messages(expired['OAUTH-CLIENT-POLL-STOP'])).toEqual([expect.stringContaining('(the poll before it, of the same device code, is entry 2)')]);
    expect(messages(expired['OAUTH-CLIENT-POLL-STOP-DENIED'])).toEqual([expect.stringContaining('(the poll before it, of the same device code, is entry 5)')]);
    expect(messages(expired['OAUTH-CLIENT-POLL-EXPIRES-IN'])).toEqual([expect.stringContaining('(its device code was issued by entry 0)')]);
  });
  it('two authorization requests with the same state: the later fails, naming the earlier', () => {
    const v = judge('client-requests', [...web('s'.repeat(43), 0), ...web('t'.repeat(43), 1_000), ...web('s'.repeat(43), 2_000)]);
    expect(outcomes(v, ['OAUTH-CLIENT-STATE'])).toEqual({ 'OAUTH-CLIENT-STATE': 'fail 8' });
    expect(messages(v['OAUTH-CLIENT-STATE'])).toEqual(['two launches sent the same state: it is not random (the authorization request of entry 0 sent the same state)']);
  });
  it('masked codes, verifiers and Authorization headers leave what compares them untested; an empty recording judges nothing', () => {
    const [a, d, t, u] = web('m'.repeat(43), 0) as [Entry, Entry, Entry, Entry];
    // as `specgate record` writes it: the code, the verifier, the issued token and the whole Authorization header masked
    const maskedFlow = [a, { ...d, responseHeaders: { location: `${redirect}?code=***&state=${'m'.repeat(43)}` } }, { ...t, requestBody: form(exchange({ code: '***', redirect_uri: redirect, code_verifier: '***' })), body: JSON.stringify({ ...TOKEN, access_token: '***' }) }, { ...u, requestHeaders: { authorization: '***' } }];
    const v = judge('client-requests', maskedFlow);
    expect(outcomes(v, ['OAUTH-CLIENT-EXCHANGE-CODE', 'OAUTH-CLIENT-PKCE-VERIFIER-MATCH', 'OAUTH-CLIENT-BEARER', 'OAUTH-CLIENT-PKCE-VERIFIER-REQUIRED', 'OAUTH-CLIENT-REVALIDATE-USER'])).toEqual({ 'OAUTH-CLIENT-EXCHANGE-CODE': 'untested', 'OAUTH-CLIENT-PKCE-VERIFIER-MATCH': 'untested', 'OAUTH-CLIENT-BEARER': 'untested', 'OAUTH-CLIENT-PKCE-VERIFIER-REQUIRED': 'pass', 'OAUTH-CLIENT-REVALIDATE-USER': 'pass' });
    expect(v['OAUTH-CLIENT-EXCHANGE-CODE']?.lacking).toMatch(/masks the authorization code/);
    const empty = judge('client-requests', [{ url: `${A}/login/device` }]);
    expect(Object.values(outcomes(empty)).every((o) => o === 'untested')).toBe(true);
  });
});

describe('the README names what a recording can settle', () => {
  it('lists each rule with the requirements it declares', () => {
    const readme = readFileSync(fromRoot('suites', 'oauth', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`judge: ${passiveRulesSentence(OAUTH_PASSIVE_RULES)}.`);
  });
});
