import { describe, expect, it } from 'vitest';
import { HarMasker, isCredentialJsonField, isCredentialParam } from '../../../src/targets/har/har-masking.js';

describe('HarMasker: what a recorded HAR file masks', () => {
  it('masks credential headers to *** and keeps them present; other headers pass', () => {
    const m = new HarMasker();
    expect(m.header('Authorization', 'Bearer tok-123456789')).toBe('***');
    expect(m.header('Cookie', 'sid=abcdefghijklmnopqrst; theme=dark')).toBe('***');
    expect(m.header('MON-APPLICATION-KEY', 'app-key-value-1')).toBe('***');
    expect(m.header('Accept', 'application/json')).toBe('application/json');
  });

  it('masks credential query parameters, keeping every other byte of the URL', () => {
    const m = new HarMasker();
    expect(m.url('http://h/cb?access_token=at-9999999999&x=%2Fy&client_secret=s3cr3t-value&password=hunter2-pw')).toBe('http://h/cb?access_token=***&x=%2Fy&client_secret=***&password=***');
    expect(m.url('http://h/list?key=AIzaVeryLongApiKey&limit=2')).toBe('http://h/list?key=***&limit=2');
    expect(m.url('http://h/p?refresh_token=')).toBe('http://h/p?refresh_token=');
    expect(m.url('http://h/plain')).toBe('http://h/plain');
  });

  it('masks an authorization code beside state or in a token request, not any other code', () => {
    const m = new HarMasker();
    expect(m.url('http://app/cb?code=authcode-1234567&state=xyz')).toBe('http://app/cb?code=***&state=xyz');
    expect(m.form('grant_type=authorization_code&code=authcode-7654321&code_verifier=verifier-abcdefgh&redirect_uri=http%3A%2F%2Fapp%2Fcb')).toBe(
      'grant_type=authorization_code&code=***&code_verifier=***&redirect_uri=http%3A%2F%2Fapp%2Fcb',
    );
    expect(m.url('http://h/countries?code=US')).toBe('http://h/countries?code=US');
  });

  it('masks the fragment of a Location header (an implicit grant) and the query of a redirect', () => {
    const m = new HarMasker();
    expect(m.header('Location', 'https://app/cb#access_token=tok-fragment-1&token_type=bearer&state=s')).toBe('https://app/cb#access_token=***&token_type=bearer&state=s');
    expect(m.header('location', 'https://app/cb?code=c0de-c0de-c0de&state=s')).toBe('https://app/cb?code=***&state=s');
  });

  it('masks credential fields of JSON bodies at any depth, keeping the text as it was', () => {
    const m = new HarMasker();
    const body = '{"access_token": "at-issued-000111", "token_type":"Bearer", "nested": {"Client-Secret":"cs-000111222"}, "n": 9007199254740993}';
    expect(m.json(body)).toBe('{"access_token": "***", "token_type":"Bearer", "nested": {"Client-Secret":"***"}, "n": 9007199254740993}');
  });

  it('masks a value it masked once wherever it shows again', () => {
    const m = new HarMasker();
    m.json('{"refresh_token":"rt-learned-123456"}');
    expect(m.text('echo: rt-learned-123456')).toBe('echo: ***');
    m.header('Authorization', 'Bearer bearer-learned-9876');
    expect(m.url('http://h/x?q=bearer-learned-9876')).toBe('http://h/x?q=***');
  });

  it('names: credential params and JSON fields', () => {
    for (const n of ['access_token', 'client_secret', 'code_verifier', 'refresh_token', 'password', 'api_key', 'id_token', 'client_assertion', 'session']) expect(isCredentialParam(n), n).toBe(true);
    for (const n of ['limit', 'page', 'state', 'code', 'redirect_uri', 'token_type', 'token_type_hint']) expect(isCredentialParam(n), n).toBe(false);
    for (const n of ['access_token', 'refreshToken', 'client-secret', 'password', 'apiKey', 'code_verifier']) expect(isCredentialJsonField(n), n).toBe(true);
    for (const n of ['token_type', 'primaryKey', 'id', 'name']) expect(isCredentialJsonField(n), n).toBe(false);
  });
});
