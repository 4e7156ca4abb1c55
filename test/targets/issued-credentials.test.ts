import { describe, expect, it } from 'vitest';
import { isCredentialField, issuedInAnswer, issuedInValue, sentInRequest, type AnswerParts } from '../../src/targets/issued-credentials.js';

/** An answer with a JSON body (parsed as the HTTP target parses it). */
function json(body: unknown, headers: AnswerParts['headers'] = {}): AnswerParts {
  return { headers: { 'content-type': 'application/json', ...headers }, bodyText: JSON.stringify(body), body };
}

describe('issuedInAnswer', () => {
  it('finds every credential field of a token, device or registration answer', () => {
    const found = issuedInAnswer(
      json({
        access_token: 'at-0123456789',
        refresh_token: 'rt-0123456789',
        id_token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
        device_code: 'dc-0123456789',
        client_secret: 'cs-0123456789',
        registration_access_token: 'rat-0123456789',
        client_assertion: 'ca-0123456789',
        token_type: 'Bearer',
        client_id: 'public-client-id',
        expires_in: 3600,
      }),
    );
    expect(found.sort()).toEqual(['at-0123456789', 'ca-0123456789', 'cs-0123456789', 'dc-0123456789', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'rat-0123456789', 'rt-0123456789']);
  });

  it('finds them at any depth, in lists, and spelled in camelCase or with a hyphen', () => {
    const found = issuedInAnswer(json({ data: { sessions: [{ tokens: { accessToken: 'deep-access-1' } }, { 'refresh-token': 'deep-refresh-2' }] } }));
    expect(found.sort()).toEqual(['deep-access-1', 'deep-refresh-2']);
  });

  it('stops searching at a bounded depth', () => {
    let body: unknown = { access_token: 'too-deep-to-find' };
    for (let i = 0; i < 100; i++) body = { next: body };
    expect(issuedInAnswer(json(body))).toEqual([]);
    let shallow: unknown = { access_token: 'deep-enough-to-find' };
    for (let i = 0; i < 20; i++) shallow = { next: shallow };
    expect(issuedInAnswer(json(shallow))).toEqual(['deep-enough-to-find']);
  });

  it('finds them in a form-encoded body, parsed or not', () => {
    const text = 'access_token=gho_16C7e42F292c6912E7710c838347Ae178B4a&scope=repo&token_type=bearer';
    const parsed = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, bodyText: text, body: Object.fromEntries(new URLSearchParams(text)) };
    expect(issuedInAnswer(parsed)).toEqual(['gho_16C7e42F292c6912E7710c838347Ae178B4a']);
    // text/plain, as some platforms answer: read as the form it is
    expect(issuedInAnswer({ headers: { 'content-type': 'text/plain' }, bodyText: text, body: undefined })).toEqual(['gho_16C7e42F292c6912E7710c838347Ae178B4a']);
  });

  it('takes the code and the tokens of a redirect Location, in its query or fragment', () => {
    const res = { headers: { location: 'https://client.example/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz' }, bodyText: '', body: undefined };
    expect(issuedInAnswer(res)).toEqual(['SplxlOBeZQQYbYS6WxSbIA']);
    const implicit = { headers: { location: '/cb#access_token=2YotnFZFEjr1zCsicMWpAA&token_type=example&state=xyz' }, bodyText: '', body: undefined };
    expect(issuedInAnswer(implicit)).toEqual(['2YotnFZFEjr1zCsicMWpAA']);
  });

  it('leaves an error code of a body alone', () => {
    expect(issuedInAnswer(json({ error: 'invalid_grant', code: 'invalid_grant', error_description: 'the access_token was refused' }))).toEqual([]);
    expect(issuedInAnswer(json({ error: { code: 'E_EXPIRED', state: 'failed', message: 'refresh_token expired' } }))).toEqual([]);
    // an error_uri is a URL with a code, but no authorization response
    expect(issuedInAnswer(json({ error: 'invalid_client', error_uri: 'https://docs.example/errors?code=invalid_client_secret' }))).toEqual([]);
  });

  it('takes the value of a session cookie, and not a short preference', () => {
    const res = { headers: { 'set-cookie': ['sid=Fh39sKq0vLm2Xr9TkP4s; Path=/; HttpOnly', 'theme=dark; Path=/'] }, bodyText: '', body: undefined };
    expect(issuedInAnswer(res)).toEqual(['Fh39sKq0vLm2Xr9TkP4s']);
  });

  it('finds a field named in any letter case deep in a long body, and none in a long body naming none', () => {
    const filler = Array.from({ length: 200 }, (_, i) => ({ id: i, countryCode: 'AU', identity: `user-${i}` }));
    for (const name of ['ACCESS_TOKEN', 'Refresh-Token', 'iD_tOkEn', 'DEVICE_CODE', 'Client-Secret', 'clientAssertion']) {
      expect(issuedInAnswer(json({ items: filler, nested: { [name]: 'issued-value-0123' } }))).toEqual(['issued-value-0123']);
    }
    // a parsed body whose text names no field is not walked: a key spelled apart from the text's words is left
    const text = JSON.stringify({ items: filler });
    expect(issuedInAnswer({ headers: {}, bodyText: text, body: { items: filler, access_token: 'never-read' } })).toEqual([]);
  });

  it('reads no further than its text when no credential field is named', () => {
    const body = new Proxy({}, { ownKeys: () => { throw new Error('the body was walked'); } });
    expect(issuedInAnswer({ headers: {}, bodyText: '{"id":1,"name":"x","code":"E1"}', body })).toEqual([]);
  });
});

describe('sentInRequest', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  it('takes the code of a token request, and its other credentials', () => {
    const body = 'grant_type=authorization_code&code=Spl%2Bxl0BeZQQ&redirect_uri=https%3A%2F%2Fc%2Fcb&client_id=c1&client_secret=cs-0123456789';
    expect(sentInRequest({ url: 'https://as.example/token', headers: form, body }).sort()).toEqual(['Spl+xl0BeZQQ', 'cs-0123456789']);
    // GitHub-style: no grant_type, everything in the query
    expect(sentInRequest({ url: 'https://gh.example/login/oauth/access_token?client_id=c1&client_secret=cs-0123456789&code=abcdef0123456789', headers: {} }).sort()).toEqual(['abcdef0123456789', 'cs-0123456789']);
  });

  it('takes the code of a JSON token request', () => {
    const body = JSON.stringify({ grant_type: 'authorization_code', code: 'json-code-0123', client_id: 'c1' });
    expect(sentInRequest({ url: 'https://as.example/token', headers: { 'content-type': 'application/json' }, body })).toEqual(['json-code-0123']);
  });

  it('leaves the code of any other request alone', () => {
    expect(sentInRequest({ url: 'https://api.example/poll', headers: form, body: 'code=c-0123456789&other=x' })).toEqual([]);
    expect(sentInRequest({ url: 'https://api.example/items?code=ABC123', headers: {} })).toEqual([]);
  });
});

describe('issuedInValue', () => {
  it('takes the code of the page a user agent ended on, and of the authorization response it reports', () => {
    const result = { outcome: 'redirected', location: 'https://client.example/cb?code=0123456789abcdef0123&state=s1', code: '0123456789abcdef0123', state: 's1' };
    expect(issuedInValue(result)).toContain('0123456789abcdef0123');
    expect(issuedInValue({ code: 'from-an-object-0123', state: 's2' })).toEqual(['from-an-object-0123']);
  });

  it('finds the fields of a body a check kept as text', () => {
    expect(issuedInValue({ status: 200, body: '{"access_token":"kept-as-text-0123","token_type":"bearer"}' })).toEqual(['kept-as-text-0123']);
  });
});

describe('isCredentialField', () => {
  it('names the credential fields in their usual spellings, and nothing else', () => {
    for (const k of ['access_token', 'Access-Token', 'accessToken', 'refresh_token', 'id_token', 'device_code', 'client_secret', 'registration_access_token', 'client_assertion']) expect(isCredentialField(k)).toBe(true);
    for (const k of ['code', 'token_type', 'client_id', 'user_code', 'expires_in', 'error']) expect(isCredentialField(k)).toBe(false);
  });
});
