/**
 * The ctx-auth suite's passive rules (suites/ctx-auth/passive/), each on small recordings: one
 * that keeps the rule, one that breaks it, and one that holds nothing the rule judges; the
 * client rule both on a recording in clear (a browser's or a proxy's own HAR) and on one masked
 * as `specgate record` writes it.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiTable } from '../../../src/engine/api/table.js';
import type { Exchange } from '../../../src/engine/model.js';
import { matchRecording } from '../../../src/engine/passive/match-recording.js';
import { passiveView } from '../../../src/engine/passive/passive-rules.js';
import { fromRoot } from '../../../src/paths.js';
import { loadHar } from '../../../src/targets/har/load-har.js';
import { suite } from '../../../suites/ctx-auth/index.js';
import { CLIENT_REQUIREMENT_IDS } from '../../../suites/ctx-auth/checks/client-judges.js';
import type { ScenarioRun } from '../../../suites/ctx-auth/checks/client-evidence.js';
import { failedExchange, recordedRuns, REQUESTS_ABOUT } from '../../../suites/ctx-auth/passive/client-requests.js';
import { CTX_AUTH_PASSIVE_RULES } from '../../../suites/ctx-auth/passive/index.js';
import { passiveRulesSentence } from '../../helpers/passive-rules-paragraph.js';
import { loadedSuite } from '../../helpers/suite-facts.js';
import { outcome, outcomes, ruleJudge } from '../../helpers/rule-judge.js';
import { harEntry, harFile, type EntryInput } from '../../targets/har/har-builder.js';

const ctx = loadedSuite(suite);
const table = ctx.api as ApiTable;

const S = 'http://127.0.0.1:9000';
const json = { 'content-type': 'application/json', 'cache-control': 'no-store' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const REDIRECT = 'http://127.0.0.1:7777/callback';
const DOC = { issuer: S, authorization_endpoint: `${S}/authorize`, token_endpoint: `${S}/token`, registration_endpoint: `${S}/register`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] };
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

/** Recordings the tests below read themselves. */
const dir = mkdtempSync(join(tmpdir(), 'specgate-ctx-rules-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const judge = ruleJudge('specgate-ctx-rules-', table, CTX_AUTH_PASSIVE_RULES, (_e, i) => ({ startedDateTime: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString() }));

// ---------------------------------------------------------------- recorded exchanges
const metadataAt = (doc: unknown, more: Partial<EntryInput> = {}): EntryInput => ({ url: `${S}/.well-known/oauth-authorization-server`, requestHeaders: { 'ctx-protocol-version': '2025-03-26' }, status: 200, responseHeaders: json, body: JSON.stringify(doc), ...more });
const resource = (auth: string | undefined, status: number, challenge?: string): EntryInput => ({
  method: 'POST',
  url: `${S}/ctx`,
  requestHeaders: { 'content-type': 'application/json', ...(auth !== undefined ? { authorization: auth } : {}) },
  requestBody: '{"jsonrpc":"2.0","id":1,"method":"initialize"}',
  status,
  responseHeaders: { 'content-type': 'application/json', ...(challenge !== undefined ? { 'www-authenticate': challenge } : {}) },
  body: '{}',
});
const register = (body: unknown, status: number, answer: unknown): EntryInput => ({ method: 'POST', url: `${S}/register`, requestHeaders: { 'content-type': 'application/json' }, requestBody: JSON.stringify(body), status, responseHeaders: json, body: JSON.stringify(answer) });
const authorize = (params: Record<string, string>, location: string): EntryInput => ({ url: `${S}/authorize?${new URLSearchParams(params).toString()}`, status: 302, responseHeaders: { location } });
const token = (form: Record<string, string>, status: number, answer: unknown, headers: Record<string, string> = json): EntryInput => ({ method: 'POST', url: `${S}/token`, requestHeaders: FORM, requestBody: new URLSearchParams(form).toString(), status, responseHeaders: headers, body: JSON.stringify(answer) });

describe('every rule judges only requirements of the catalog', () => {
  it('the requirements named are in requirements.yaml and not excluded', () => {
    const ids = new Map(ctx.requirements.map((r) => [r.id, r]));
    for (const [name, rule] of Object.entries(CTX_AUTH_PASSIVE_RULES)) for (const id of rule.requirements) expect(ids.has(id) && ids.get(id)?.excluded === undefined, `${name}: ${id}`).toBe(true);
  });
});

describe('the API table sorts a recording', () => {
  it('fallback and advertised endpoints by their last segment, later revisions\' probes apart from the resource, any other path the resource', () => {
    const file = join(dir, 'sort.har');
    const urls = ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/ctx', '/oauth2/token', '/api/mcp', '/ctx/.well-known/openid-configuration'];
    writeFileSync(file, JSON.stringify(harFile(urls.map((u, i) => harEntry({ method: i === 2 || i === 3 ? 'POST' : 'GET', url: `${S}${u}` })))));
    const m = matchRecording(table, loadHar(file));
    const ops = [...m.byOperation.values()].flat().sort((a, b) => a.recorded.index - b.recorded.index).map((x) => x.operation.id);
    expect(ops).toEqual(['metadata', 'laterProbes.protectedResourcePath', 'token', 'resource.post', 'laterProbes.openidConfiguration']);
  });
});

describe('metadata', () => {
  it('a whole document at the host root keeps every rule', () => {
    expect(outcomes(judge('metadata', [metadataAt(DOC)]))).toEqual({ 'CTX-SRV-METADATA': 'pass', 'CTX-SRV-METADATA-SHAPE': 'pass', 'CTX-SRV-METADATA-ISSUER': 'pass', 'CTX-SRV-METADATA-S256': 'pass' });
  });
  it('a document without token_endpoint or S256, an issuer with a query, a 404: each fails its rule', () => {
    const { token_endpoint: _t, code_challenge_methods_supported: _c, ...lacking } = DOC;
    expect(outcomes(judge('metadata', [metadataAt(lacking)]))).toEqual({ 'CTX-SRV-METADATA': 'pass', 'CTX-SRV-METADATA-SHAPE': 'fail 0', 'CTX-SRV-METADATA-ISSUER': 'pass', 'CTX-SRV-METADATA-S256': 'fail 0' });
    expect(outcomes(judge('metadata', [metadataAt({ ...DOC, issuer: `${S}/?a=1` })]))).toMatchObject({ 'CTX-SRV-METADATA-ISSUER': 'fail 0', 'CTX-SRV-METADATA-SHAPE': 'pass' });
    expect(outcomes(judge('metadata', [metadataAt({ error: 'not_found' }, { status: 404 })]))).toEqual({ 'CTX-SRV-METADATA': 'fail 0', 'CTX-SRV-METADATA-SHAPE': 'untested', 'CTX-SRV-METADATA-ISSUER': 'untested', 'CTX-SRV-METADATA-S256': 'untested' });
  });
  it("an issuer with a path: its own document (RFC 8414 section 3.1) must name it; not recorded, the issuer is not judged", () => {
    const own = (issuer: string): EntryInput => metadataAt({ ...DOC, issuer }, { url: `${S}/.well-known/oauth-authorization-server/tenant` });
    expect(outcome(judge('metadata', [metadataAt({ ...DOC, issuer: `${S}/tenant` }), own(`${S}/tenant`)])['CTX-SRV-METADATA-ISSUER'])).toBe('pass');
    expect(outcome(judge('metadata', [metadataAt({ ...DOC, issuer: `${S}/tenant` }), own(`${S}/other`)])['CTX-SRV-METADATA-ISSUER'])).toBe('fail 1');
    const alone = judge('metadata', [metadataAt({ ...DOC, issuer: `${S}/tenant` })])['CTX-SRV-METADATA-ISSUER'];
    expect(outcome(alone)).toBe('untested');
    expect(alone?.lacking).toMatch(/issuer's own document/);
  });
  it('no metadata request: untested', () => {
    const vs = judge('metadata', [resource(undefined, 401, 'Bearer')]);
    expect(Object.values(outcomes(vs))).toEqual(['untested', 'untested', 'untested', 'untested']);
  });
});

describe('resource-challenge', () => {
  it('a 401 with a Bearer challenge keeps both rules', () => {
    expect(outcomes(judge('resource-challenge', [resource(undefined, 401, 'Bearer realm="ctx"'), resource('Bearer t', 200)]))).toEqual({ 'CTX-SRV-401-MISSING': 'pass', 'CTX-SRV-WWW-AUTHENTICATE': 'pass' });
  });
  it('a request without Authorization answered 200, a 401 without WWW-Authenticate or with another scheme: each fails', () => {
    // the resource shown by the bearer tokens sent to it, the recorded authorization server issuing them
    expect(outcomes(judge('resource-challenge', [metadataAt(DOC), resource(undefined, 200), resource('Bearer x', 401), resource('Bearer y', 401, 'Basic realm="x"')]))).toEqual({ 'CTX-SRV-401-MISSING': 'fail 1', 'CTX-SRV-WWW-AUTHENTICATE': 'fail 2,3' });
  });
  it('a path no answer shows as a protected resource is no resource request: other APIs, a favicon, a callback, a login page', () => {
    const other = (path: string, status = 200): EntryInput => ({ url: `${S}${path}`, status, responseHeaders: json, body: '[]' });
    const unrelated = [other('/events'), other('/api/v1/events'), other('/repos/x/y/events'), other('/favicon.ico', 404), other('/delegation/callback?code=c&state=s'), other('/login')];
    expect(outcomes(judge('resource-challenge', unrelated))).toEqual({ 'CTX-SRV-401-MISSING': 'untested', 'CTX-SRV-WWW-AUTHENTICATE': 'untested' });
    expect(judge('resource-challenge', [other('/events')])['CTX-SRV-401-MISSING']?.lacking).toMatch(/path it shows as a protected resource/);
    // beside a resource a Bearer challenge shows, they are still not judged
    const vs = judge('resource-challenge', [resource(undefined, 401, 'Bearer realm="ctx"'), ...unrelated]);
    expect(outcomes(vs)).toEqual({ 'CTX-SRV-401-MISSING': 'pass', 'CTX-SRV-WWW-AUTHENTICATE': 'pass' });
    expect(vs['CTX-SRV-401-MISSING']?.observations).toBe(1);
  });
  it('a path a Bearer challenge shows as the resource: a later request to it without Authorization answered 200 fails', () => {
    expect(outcomes(judge('resource-challenge', [resource(undefined, 401, 'Bearer realm="ctx"'), { url: `${S}/events`, status: 200 }, resource(undefined, 200)]))).toEqual({ 'CTX-SRV-401-MISSING': 'fail 2', 'CTX-SRV-WWW-AUTHENTICATE': 'pass' });
  });
  it('the path protected-resource metadata names is the resource', () => {
    const prm: EntryInput = { url: `${S}/.well-known/oauth-protected-resource`, status: 200, responseHeaders: json, body: JSON.stringify({ resource: `${S}/ctx`, authorization_servers: [S] }) };
    expect(outcomes(judge('resource-challenge', [prm, resource(undefined, 200)]))).toMatchObject({ 'CTX-SRV-401-MISSING': 'fail 1' });
  });
  it('bearer tokens sent to a path show it as the resource only beside the authorization server that issues them', () => {
    // an API of another kind takes bearer tokens and may answer without one as well
    expect(outcomes(judge('resource-challenge', [resource('Bearer t', 200), resource(undefined, 200)]))).toMatchObject({ 'CTX-SRV-401-MISSING': 'untested' });
    expect(outcomes(judge('resource-challenge', [metadataAt(DOC), resource('***', 200), resource(undefined, 200)]))).toMatchObject({ 'CTX-SRV-401-MISSING': 'fail 2' });
    expect(outcomes(judge('resource-challenge', [token({ grant_type: 'authorization_code' }, 200, {}), resource('Bearer t', 200), resource(undefined, 200)]))).toMatchObject({ 'CTX-SRV-401-MISSING': 'fail 2' });
  });
  it('only authorized requests answered 200: untested, and a GET /token is no resource request', () => {
    expect(outcomes(judge('resource-challenge', [resource('Bearer t', 200), { url: `${S}/token`, status: 405 }]))).toEqual({ 'CTX-SRV-401-MISSING': 'untested', 'CTX-SRV-WWW-AUTHENTICATE': 'untested' });
  });
});

describe('token-answers', () => {
  const ok = { access_token: 'a', token_type: 'Bearer', expires_in: 3600, refresh_token: 'r' };
  it('a 200 with access_token, token_type Bearer, expires_in and no-store, a 400 invalid_grant: every rule kept', () => {
    expect(outcomes(judge('token-answers', [token({ grant_type: 'authorization_code' }, 200, ok), token({ grant_type: 'authorization_code' }, 400, { error: 'invalid_grant' })]))).toEqual({ 'CTX-SRV-TOKEN-RESPONSE': 'pass', 'CTX-SRV-TOKEN-NO-STORE': 'pass', 'CTX-SRV-TOKEN-ERROR-SHAPE': 'pass', 'CTX-SRV-EXPIRES-IN': 'pass' });
  });
  it('token_type mac, no Cache-Control, an error not listed, no expires_in: each fails on its answer', () => {
    const vs = judge('token-answers', [token({}, 200, { ...ok, token_type: 'mac' }), token({}, 200, { access_token: 'b', token_type: 'bearer' }, { 'content-type': 'application/json' }), token({}, 400, { error: 'nope' }), token({}, 401, { error: 'invalid_grant' })]);
    expect(outcomes(vs)).toEqual({ 'CTX-SRV-TOKEN-RESPONSE': 'fail 0', 'CTX-SRV-TOKEN-NO-STORE': 'fail 1', 'CTX-SRV-TOKEN-ERROR-SHAPE': 'fail 2,3', 'CTX-SRV-EXPIRES-IN': 'fail 1' });
  });
  it('no token request: untested', () => {
    expect(Object.values(outcomes(judge('token-answers', [metadataAt(DOC)])))).toEqual(['untested', 'untested', 'untested', 'untested']);
  });
});

describe('registration-answers', () => {
  const valid = { redirect_uris: [REDIRECT] };
  it('a valid registration answered 201 with client_id and its redirect_uris; one without redirect_uris refused 400 invalid_client_metadata', () => {
    expect(outcomes(judge('registration-answers', [register(valid, 201, { client_id: 'c', ...valid }), register({}, 400, { error: 'invalid_client_metadata' })]))).toEqual({ 'CTX-SRV-DCR-VALID': 'pass', 'CTX-SRV-DCR-INVALID': 'pass' });
  });
  it('a 200 without client_id, a registration of "not a uri" accepted: each fails', () => {
    expect(outcomes(judge('registration-answers', [register(valid, 200, valid), register({ redirect_uris: ['not a uri'] }, 201, { client_id: 'd' })]))).toEqual({ 'CTX-SRV-DCR-VALID': 'fail 0', 'CTX-SRV-DCR-INVALID': 'fail 1' });
  });
  it('no registration: untested', () => {
    expect(outcomes(judge('registration-answers', [metadataAt(DOC)]))).toEqual({ 'CTX-SRV-DCR-VALID': 'untested', 'CTX-SRV-DCR-INVALID': 'untested' });
  });
});

describe('state-echo', () => {
  const params = { response_type: 'code', client_id: 'c', redirect_uri: REDIRECT, code_challenge: CHALLENGE, code_challenge_method: 'S256', state: 's1' };
  it('the redirect back carries the state sent', () => {
    expect(outcomes(judge('state-echo', [authorize(params, `${REDIRECT}?code=k&state=s1`)]))).toEqual({ 'CTX-SRV-STATE-ECHO': 'pass' });
  });
  it('another state, or none, fails', () => {
    expect(outcomes(judge('state-echo', [authorize(params, `${REDIRECT}?code=k&state=s2`), authorize(params, `${REDIRECT}?code=k`)]))).toEqual({ 'CTX-SRV-STATE-ECHO': 'fail 0,1' });
  });
  it('a redirect to a sign-in page is not the answer to the client yet: untested', () => {
    expect(outcomes(judge('state-echo', [authorize(params, `${S}/login?next=1`)]))).toEqual({ 'CTX-SRV-STATE-ECHO': 'untested' });
  });
});

describe('code-exchanges', () => {
  const params = { response_type: 'code', client_id: 'c', redirect_uri: REDIRECT, code_challenge: CHALLENGE, code_challenge_method: 'S256', state: 's1' };
  const { code_challenge: _c, code_challenge_method: _m, ...unchallenged } = params;
  const issued = { access_token: 'a', token_type: 'Bearer' };
  const exchange = (code: string, verifier: string, status: number, answer: unknown): EntryInput => token({ grant_type: 'authorization_code', code, client_id: 'c', redirect_uri: REDIRECT, code_verifier: verifier }, status, answer);
  it('a wrong verifier refused with invalid_grant, a code used again refused, a request without challenge refused: every rule kept', () => {
    const vs = judge('code-exchanges', [
      authorize(params, `${REDIRECT}?code=k1&state=s1`),
      exchange('k1', 'w'.repeat(43), 400, { error: 'invalid_grant' }),
      authorize(params, `${REDIRECT}?code=k2&state=s1`),
      exchange('k2', VERIFIER, 200, issued),
      exchange('k2', VERIFIER, 400, { error: 'invalid_grant' }),
      { ...authorize(unchallenged, ''), status: 400, responseHeaders: json, body: '{"error":"invalid_request"}' },
    ]);
    expect(outcomes(vs)).toEqual({ 'CTX-SRV-PKCE-REQUIRED': 'pass', 'CTX-SRV-PKCE-VERIFIER': 'pass', 'CTX-SRV-CODE-SINGLE-USE': 'pass' });
  });
  it('a token for a wrong verifier, for a code used again, for a code issued without challenge: each fails on its exchange', () => {
    const vs = judge('code-exchanges', [
      authorize(params, `${REDIRECT}?code=k1&state=s1`),
      exchange('k1', 'w'.repeat(43), 200, issued),
      authorize(params, `${REDIRECT}?code=k2&state=s1`),
      exchange('k2', VERIFIER, 200, issued),
      exchange('k2', VERIFIER, 200, issued),
      authorize(unchallenged, `${REDIRECT}?code=k3&state=s1`),
      exchange('k3', VERIFIER, 200, issued),
    ]);
    expect(outcomes(vs)).toEqual({ 'CTX-SRV-PKCE-REQUIRED': 'fail 6', 'CTX-SRV-PKCE-VERIFIER': 'fail 1', 'CTX-SRV-CODE-SINGLE-USE': 'fail 4' });
  });
  it('masked codes pair nothing: untested, saying so', () => {
    const vs = judge('code-exchanges', [authorize(params, `${REDIRECT}?code=***&state=s1`), exchange('***', '***', 200, issued)]);
    expect(outcomes(vs)).toEqual({ 'CTX-SRV-PKCE-REQUIRED': 'untested', 'CTX-SRV-PKCE-VERIFIER': 'untested', 'CTX-SRV-CODE-SINGLE-USE': 'untested' });
    expect(vs['CTX-SRV-PKCE-VERIFIER']?.lacking).toMatch(/masks the authorization codes/);
  });
});

describe('client-requests', () => {
  const authz = { response_type: 'code', client_id: 'c1', redirect_uri: REDIRECT, code_challenge: CHALLENGE, code_challenge_method: 'S256', state: 's1' };
  const flow = (over: { verifier?: string; tokenQuery?: boolean; bearer?: string; masked?: boolean } = {}): EntryInput[] => {
    const m = over.masked === true;
    const code = m ? '***' : 'code-1';
    const access = m ? '***' : 'access-token-1';
    const ex: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'c1' };
    if (over.verifier !== '') ex['code_verifier'] = m ? '***' : (over.verifier ?? VERIFIER);
    const call = resource(over.bearer ?? (m ? '***' : `Bearer ${access}`), 200);
    return [
      resource(undefined, 401, 'Bearer'),
      metadataAt(DOC),
      register({ redirect_uris: [REDIRECT] }, 201, { client_id: 'c1', redirect_uris: [REDIRECT] }),
      authorize(authz, `${REDIRECT}?code=${code}&state=s1`),
      token(ex, 200, { access_token: access, token_type: 'Bearer', expires_in: 60 }),
      over.tokenQuery ? { ...call, url: `${S}/ctx?access_token=${access}` } : call,
    ];
  };
  const JUDGED = ['CTX-CLI-BASE-URL-ROOT', 'CTX-CLI-DISCOVERY-FIRST', 'CTX-CLI-METADATA-USED', 'CTX-CLI-VERSION-HEADER', 'CTX-CLI-401-STARTS-FLOW', 'CTX-CLI-PKCE-CHALLENGE', 'CTX-CLI-PKCE-VERIFIER', 'CTX-CLI-REDIRECT-URI', 'CTX-CLI-REDIRECT-URI-SAME', 'CTX-CLI-TOKEN-REQUEST', 'CTX-CLI-CODE-ONCE', 'CTX-CLI-DCR-BODY', 'CTX-CLI-BEARER-EVERY', 'CTX-CLI-TOKEN-NOT-IN-QUERY'];
  it('a whole flow in clear passes what it shows; DCR and the preconfigured client are never shown', () => {
    const vs = judge('client-requests', flow());
    expect(Object.entries(outcomes(vs)).filter(([, o]) => o === 'pass').map(([id]) => id).sort()).toEqual([...JUDGED].sort());
    expect(outcomes(vs)).toMatchObject({ 'CTX-CLI-DCR': 'untested', 'CTX-CLI-PRECONFIGURED-CLIENT': 'untested', 'CTX-CLI-FALLBACK': 'untested' });
    expect(vs['CTX-CLI-DCR']?.lacking).toMatch(/was given a client ID/);
  });
  it('a verifier that is not the challenge\'s, a token in the query and none in the header: each fails on its request', () => {
    expect(outcomes(judge('client-requests', flow({ verifier: 'x'.repeat(43) })))).toMatchObject({ 'CTX-CLI-PKCE-VERIFIER': 'fail 4' });
    expect(outcomes(judge('client-requests', flow({ tokenQuery: true, bearer: '' })))).toMatchObject({ 'CTX-CLI-TOKEN-NOT-IN-QUERY': 'fail 5', 'CTX-CLI-BEARER-EVERY': 'fail 5', 'CTX-CLI-PKCE-VERIFIER': 'pass' });
  });
  it('masked as specgate record writes it: the verifier and the header judged by presence, codes and renewals not judged', () => {
    const vs = judge('client-requests', flow({ masked: true }));
    expect(outcomes(vs)).toMatchObject({ 'CTX-CLI-PKCE-VERIFIER': 'pass', 'CTX-CLI-BEARER-EVERY': 'pass', 'CTX-CLI-TOKEN-REQUEST': 'pass', 'CTX-CLI-CODE-ONCE': 'untested', 'CTX-CLI-EXPIRED-RESTART': 'untested' });
    expect(vs['CTX-CLI-CODE-ONCE']?.lacking).toMatch(/masks the authorization codes/);
    expect(vs['CTX-CLI-EXPIRED-RESTART']?.lacking).toMatch(/masks the tokens/);
    const bad = flow({ masked: true, verifier: '' });
    (bad[5] as EntryInput).requestHeaders = { 'content-type': 'application/json' };
    expect(outcomes(judge('client-requests', bad))).toMatchObject({ 'CTX-CLI-PKCE-VERIFIER': 'fail 4', 'CTX-CLI-BEARER-EVERY': 'fail 5' });
  });
  it('the fallback judged only where the metadata was answered 404; the token request before discovery fails DISCOVERY-FIRST', () => {
    const fallback = [metadataAt({ error: 'not_found' }, { status: 404 }), { ...authorize(authz, `${REDIRECT}?code=c&state=s1`), url: `${S}/oauth2/authorize?${new URLSearchParams(authz).toString()}` }];
    expect(outcomes(judge('client-requests', fallback))).toMatchObject({ 'CTX-CLI-FALLBACK': 'fail 1', 'CTX-CLI-METADATA-USED': 'untested' });
    const [first, meta, ...rest] = flow();
    expect(outcomes(judge('client-requests', [first as EntryInput, ...rest.slice(2, 3), meta as EntryInput, ...rest]))).toMatchObject({ 'CTX-CLI-DISCOVERY-FIRST': 'fail 1' });
  });
  it('two sessions in one masked recording are judged as two launches: the second one starts without a token, each exchange pairs with its own authorization', () => {
    const second = flow({ masked: true });
    // the second session's client registered another client ID and authorized with it
    const again = second.map((e) => ({ ...e, ...(e.url?.includes('/authorize?') ? { url: e.url.replace('client_id=c1', 'client_id=c2') } : {}), ...(e.requestBody?.includes('client_id=c1') ? { requestBody: e.requestBody.replace('client_id=c1', 'client_id=c2') } : {}) }));
    const vs = judge('client-requests', [...flow({ masked: true }), ...again]);
    expect(outcomes(vs)).toMatchObject({ 'CTX-CLI-BEARER-EVERY': 'pass', 'CTX-CLI-TOKEN-REQUEST': 'pass', 'CTX-CLI-401-STARTS-FLOW': 'pass', 'CTX-CLI-PKCE-FRESH': 'fail 9' });
    // a session whose exchange names another client than its authorization still fails
    const wrong = again.map((e) => (e.requestBody?.includes('client_id=c2') && e.url?.endsWith('/token') ? { ...e, requestBody: e.requestBody.replace('client_id=c2', 'client_id=c1') } : e));
    expect(outcomes(judge('client-requests', [...flow({ masked: true }), ...wrong]))).toMatchObject({ 'CTX-CLI-TOKEN-REQUEST': 'fail 10' });
  });
  it('an endpoint the metadata advertises at a path of another name: the client must use it, and the server rules read it as that endpoint', () => {
    const doc = { ...DOC, token_endpoint: `${S}/oauth/issue` };
    const ex = { grant_type: 'authorization_code', code: 'code-1', redirect_uri: REDIRECT, client_id: 'c1', code_verifier: VERIFIER };
    const steps = (tokenPath: string): EntryInput[] => [metadataAt(doc), authorize(authz, `${REDIRECT}?code=code-1&state=s1`), { ...token(ex, 200, { access_token: 'a', token_type: 'Bearer', expires_in: 60 }), url: `${S}${tokenPath}` }];
    expect(outcomes(judge('client-requests', steps('/oauth/issue')))).toMatchObject({ 'CTX-CLI-METADATA-USED': 'pass', 'CTX-CLI-BASE-URL-ROOT': 'pass', 'CTX-CLI-TOKEN-REQUEST': 'pass' });
    expect(outcomes(judge('client-requests', steps('/token')))).toMatchObject({ 'CTX-CLI-METADATA-USED': 'fail 2' });
    expect(outcomes(judge('token-answers', steps('/oauth/issue')))).toMatchObject({ 'CTX-SRV-TOKEN-RESPONSE': 'pass' });
    expect(outcomes(judge('resource-challenge', steps('/oauth/issue')))).toEqual({ 'CTX-SRV-401-MISSING': 'untested', 'CTX-SRV-WWW-AUTHENTICATE': 'untested' });
  });
  it('no request of a kind: untested with what is lacking', () => {
    const vs = judge('client-requests', [metadataAt(DOC)]);
    expect(outcome(vs['CTX-CLI-PKCE-CHALLENGE'])).toBe('untested');
    expect(vs['CTX-CLI-PKCE-CHALLENGE']?.lacking).toMatch(/no authorization request/);
  });
  it('recorded traffic of no concern to the protocol is no resource request of the client, and fails nothing', () => {
    const other = (path: string, status: number): EntryInput => ({ url: `${S}${path}`, status, responseHeaders: json, body: '[]' });
    const vs = judge('client-requests', [other('/api/v1/events', 401), other('/api/v1/events', 200), other('/repos/x/y/events', 200)]);
    expect(Object.entries(outcomes(vs)).filter(([, o]) => o.startsWith('fail'))).toEqual([]);
    expect(vs['CTX-CLI-401-STARTS-FLOW']?.lacking).toMatch(/sent no resource request/);
  });
  it('a failure that names no request is shown at the first request of the kind it is about, never at an unrelated first entry', () => {
    expect(Object.keys(REQUESTS_ABOUT).sort()).toEqual([...CLIENT_REQUIREMENT_IDS].sort());
    const file = join(dir, 'anchor.har');
    const entries: EntryInput[] = [{ url: `${S}/favicon.ico`, status: 404 }, metadataAt(DOC), token({ grant_type: 'authorization_code', code: 'c' }, 200, {}), { url: `${S}/register`, method: 'POST', status: 201 }];
    writeFileSync(file, JSON.stringify(harFile(entries.map((e) => harEntry(e)))));
    const recording = loadHar(file);
    const { runs, byN } = recordedRuns(passiveView(table, recording, matchRecording(table, recording)));
    const run = { ...(runs[0] as ScenarioRun), requests: runs.flatMap((r) => r.requests) };
    const failure = { ok: false as const, message: 'no request named here' };
    const at = (id: string, v: typeof failure & { exchange?: Exchange } = failure): number | undefined => failedExchange(id, v, run, byN)?.index;
    expect(at('CTX-CLI-TOKEN-REQUEST')).toBe(2);
    expect(at('CTX-CLI-DCR-BODY')).toBe(3);
    expect(at('CTX-CLI-VERSION-HEADER')).toBe(1);
    // nothing of its kind recorded: the first request of the protocol, not the favicon
    expect(at('CTX-CLI-PKCE-CHALLENGE')).toBe(1);
    // a request the failure names is where it is shown
    expect(at('CTX-CLI-PKCE-CHALLENGE', { ...failure, message: 'request #1 GET /favicon.ico was odd' })).toBe(0);
    // a recording of nothing of the protocol: no anchor
    const other = join(dir, 'anchor-other.har');
    writeFileSync(other, JSON.stringify(harFile([harEntry({ url: `${S}/favicon.ico`, status: 404 })])));
    const r2 = loadHar(other);
    const two = recordedRuns(passiveView(table, r2, matchRecording(table, r2)));
    expect(failedExchange('CTX-CLI-TOKEN-REQUEST', failure, two.runs[0] as ScenarioRun, two.byN)).toBeUndefined();
  });
});

describe('the README names what a recording can settle', () => {
  it('lists each rule with the requirements it declares', () => {
    const readme = readFileSync(fromRoot('suites', 'ctx-auth', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`judge: ${passiveRulesSentence(CTX_AUTH_PASSIVE_RULES)}.`);
  });
});
