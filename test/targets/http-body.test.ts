import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/targets/http-client.js';

/** Each path answers with the content type and body listed here. */
const answers: Record<string, [string, string]> = {
  '/json': ['application/json; charset=utf-8', '{"id":9007199254740993,"neg":-9223372036854775808,"small":42,"f":1.5,"s":"9007199254740993","list":[12345678901234567890]}'],
  '/problem': ['application/problem+json', '{"type":"about:blank","status":400}'],
  '/bad-json': ['application/json', '{"id": 1,'],
  '/form': ['application/x-www-form-urlencoded', 'access_token=gho_abc&scope=repo%2Cuser&token_type=bearer&note=a+b'],
  '/xml': ['application/xml', '<?xml version="1.0"?><root><item>1</item><item>007</item><name>x &amp; y</name><empty/><nested a="1"><leaf>t</leaf></nested></root>'],
  '/text-xml': ['text/xml', '<error><code>NotFound</code></error>'],
  '/bad-xml': ['text/xml', '<root><open></root>'],
  '/plain': ['text/plain', 'hello'],
  '/empty-json': ['application/json', ''],
};

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const a = answers[req.url ?? ''];
    if (!a) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': a[0] }).end(a[1]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
const client = createHttpClient({ timeoutMs: 2000, maxBodyBytes: 65536 });
afterAll(async () => {
  await client.close();
  await new Promise((r) => server.close(r));
});

const get = (path: string) => client.send({ method: 'GET', url: base + path, headers: {} });

describe('http client body parsing', () => {
  it('parses JSON losslessly: int64 beyond 2^53 as bigint, the rest as numbers', async () => {
    const res = await get('/json');
    const body = res.body as Record<string, unknown>;
    expect(body.id).toBe(9007199254740993n);
    expect(body.neg).toBe(-9223372036854775808n);
    expect(body.small).toBe(42);
    expect(body.f).toBe(1.5);
    expect(body.s).toBe('9007199254740993');
    expect(body.list).toEqual([12345678901234567890n]);
    expect(res.parseError).toBeUndefined();
  });

  it('parses +json media types', async () => {
    expect((await get('/problem')).body).toEqual({ type: 'about:blank', status: 400 });
  });

  it('reports JSON that does not parse with parseError and keeps the text', async () => {
    const res = await get('/bad-json');
    expect(res.body).toBeUndefined();
    expect(res.parseError).toMatch(/^json body does not parse/);
    expect(res.bodyText).toBe('{"id": 1,');
  });

  it('treats an empty JSON body as no body, not a parse error', async () => {
    const res = await get('/empty-json');
    expect(res.body).toBeUndefined();
    expect(res.parseError).toBeUndefined();
  });

  it('parses form-encoded bodies into strings', async () => {
    expect((await get('/form')).body).toEqual({ access_token: 'gho_abc', scope: 'repo,user', token_type: 'bearer', note: 'a b' });
  });

  it('parses XML: root as key, repeated elements as arrays, text kept as strings', async () => {
    expect((await get('/xml')).body).toEqual({
      root: { item: ['1', '007'], name: 'x & y', empty: '', nested: { leaf: 't' } },
    });
    expect((await get('/text-xml')).body).toEqual({ error: { code: 'NotFound' } });
  });

  it('reports XML that is not well-formed with parseError', async () => {
    const res = await get('/bad-xml');
    expect(res.body).toBeUndefined();
    expect(res.parseError).toMatch(/not well-formed at line 1/);
  });

  it('leaves other content types unparsed but keeps bodyText and bytes', async () => {
    const res = await get('/plain');
    expect(res.body).toBeUndefined();
    expect(res.bodyText).toBe('hello');
    expect(Buffer.from(res.bodyBytes).toString()).toBe('hello');
  });
});
