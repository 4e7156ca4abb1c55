import { createServer } from 'node:http';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../src/targets/loopback-server.js';
import { startRecordingProxy } from '../../src/targets/recording-proxy.js';

describe('startRecordingProxy', () => {
  it('forwards method, path, headers and body, answers with the upstream answer, and records both', async () => {
    const upstream = await listenOnLoopback(
      createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': '1' }).end(JSON.stringify({ method: req.method, url: req.url, body, token: req.headers['x-token'] }));
        });
      }),
    );
    const proxy = await startRecordingProxy(upstream.url, { rewrite: (u) => u.replace('/brand/', '/neutral/') });
    try {
      const res = await request(`${proxy.url}/v1/brand/x?q=1`, { method: 'POST', body: '{"a":1}', headers: { 'x-token': 't1', 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(201);
      expect(res.headers['x-upstream']).toBe('1');
      expect(await res.body.json()).toEqual({ method: 'POST', url: '/v1/neutral/x?q=1', body: '{"a":1}', token: 't1' });
      expect(proxy.exchanges).toHaveLength(1);
      expect(proxy.exchanges[0]).toMatchObject({ method: 'POST', url: '/v1/brand/x?q=1', forwardedUrl: '/v1/neutral/x?q=1', requestBody: '{"a":1}', status: 201 });
      expect(JSON.parse(proxy.exchanges[0]?.responseBody ?? '')).toMatchObject({ method: 'POST' });
    } finally {
      await proxy.stop();
      await upstream.stop();
    }
  });

  it('passes a body over the recording cap through whole, and marks the kept copies as cut', async () => {
    const big = 'x'.repeat(200 * 1024);
    const upstream = await listenOnLoopback(
      createServer((req, res) => {
        let size = 0;
        req.on('data', (c: Buffer) => (size += c.length));
        req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', 'x-got': String(size) }).end(big));
      }),
    );
    const proxy = await startRecordingProxy(upstream.url);
    try {
      const res = await request(`${proxy.url}/upload`, { method: 'POST', body: big });
      expect(res.headers['x-got']).toBe(String(big.length));
      expect((await res.body.text()).length).toBe(big.length);
      const x = proxy.exchanges[0];
      expect(x?.requestBody.length).toBe(64 * 1024);
      expect(x?.responseBody.length).toBe(64 * 1024);
      expect(x).toMatchObject({ requestBodyCut: true, responseBodyCut: true });
      const small = await request(`${proxy.url}/small`, { method: 'POST', body: 'ok' });
      await small.body.text();
      expect(proxy.exchanges[1]).not.toHaveProperty('requestBodyCut');
    } finally {
      await proxy.stop();
      await upstream.stop();
    }
  });

  it('answers 502 and records it when the upstream is gone', async () => {
    const upstream = await listenOnLoopback(createServer((_q, r) => r.end()));
    const url = upstream.url;
    await upstream.stop();
    const proxy = await startRecordingProxy(url);
    try {
      const res = await request(`${proxy.url}/x`);
      expect(res.statusCode).toBe(502);
      expect(await res.body.text()).toMatch(/did not answer/);
      expect(proxy.exchanges[0]?.status).toBe(502);
    } finally {
      await proxy.stop();
    }
  });
});
