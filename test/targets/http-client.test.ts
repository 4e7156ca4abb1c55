import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaseStop } from '../../src/engine/runtime/case-stop.js';
import { createHttpClient, sendFor } from '../../src/targets/http-client.js';
import { rejection } from '../helpers/rejection.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
let server: Server;
let base = '';
let connections = 0;
/** Bytes the 50 MB route had written when its socket closed. */
let floodWritten = -1;

function listen(s: Server): Promise<number> {
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const h = routes.get(req.url?.split('?')[0] ?? '');
    if (h) h(req, res);
    else res.writeHead(404).end();
  });
  server.on('connection', () => connections++);
  base = `http://127.0.0.1:${await listen(server)}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const client = createHttpClient({ timeoutMs: 2000, maxBodyBytes: 1024 * 1024 });
afterAll(() => client.close());

function reply(status: number, headers: Record<string, string | string[]>, body = ''): Handler {
  return (_req, res) => res.writeHead(status, headers).end(body);
}

describe('http client', () => {
  it('returns a 302 as is instead of following it', async () => {
    routes.set('/redirect', reply(302, { location: '/elsewhere' }));
    routes.set('/elsewhere', reply(200, {}, 'followed'));
    const res = await client.send({ method: 'GET', url: `${base}/redirect`, headers: {} });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/elsewhere');
    expect(res.bodyText).toBe('');
  });

  it('lower-cases header names, joins repeats and keeps set-cookie a list', async () => {
    routes.set('/headers', (_req, res) => {
      res.setHeader('X-Thing', ['a', 'b']);
      res.setHeader('Set-Cookie', 'sid=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT');
      res.setHeader('ETag', '"v1"');
      res.end();
    });
    const res = await client.send({ method: 'GET', url: `${base}/headers`, headers: {} });
    expect(res.headers['x-thing']).toBe('a, b');
    expect(res.headers['set-cookie']).toEqual(['sid=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT']);
    expect(res.headers.etag).toBe('"v1"');
  });

  it('sends method, headers, body and the default user agent, on a kept-alive connection', async () => {
    routes.set('/echo', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ method: req.method, ua: req.headers['user-agent'], x: req.headers['x-a'], body: Buffer.concat(chunks).toString() })));
    });
    const ua = createHttpClient({ timeoutMs: 2000, maxBodyBytes: 1024, userAgent: 'specgate/test' });
    try {
      const before = connections;
      const a = await ua.send({ method: 'POST', url: `${base}/echo`, headers: { 'X-A': '1' }, body: 'hello' });
      const b = await ua.send({ method: 'PUT', url: `${base}/echo`, headers: { 'User-Agent': 'mine' }, body: new Uint8Array([104, 105]) });
      expect(a.body).toEqual({ method: 'POST', ua: 'specgate/test', x: '1', body: 'hello' });
      expect(b.body).toEqual({ method: 'PUT', ua: 'mine', body: 'hi' });
      for (let i = 0; i < 5; i++) await ua.send({ method: 'GET', url: `${base}/echo`, headers: {} });
      // undici may open a second socket while the first finishes its response; never one per request.
      expect(connections - before).toBeLessThanOrEqual(2);
      expect(a.durationMs).toBeGreaterThan(0);
    } finally {
      await ua.close();
    }
  });

  it('times out a target that never answers, naming URL, limit and the profile setting', async () => {
    routes.set('/hang', () => undefined);
    const start = Date.now();
    const err = await rejection(client.send({ method: 'GET', url: `${base}/hang`, headers: {}, timeoutMs: 300 }));
    expect(Date.now() - start).toBeLessThan(1500);
    expect(err.code).toBe('SG_TARGET_TIMEOUT');
    expect(err.message).toContain(`${base}/hang`);
    expect(err.message).toContain('300 ms');
    expect(err.message).toContain('http.timeoutMs');
  });

  it('enforces an overall deadline on a body that trickles in under the idle timeout', async () => {
    routes.set('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const t = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(t));
    });
    const start = Date.now();
    const err = await rejection(client.send({ method: 'GET', url: `${base}/trickle`, headers: {}, timeoutMs: 400 }));
    expect(err.code).toBe('SG_TARGET_TIMEOUT');
    expect(Date.now() - start).toBeLessThan(1500);
  });

  it('cuts off a streamed 50 MB body at the cap without reading it all', async () => {
    const total = 50 * 1024 * 1024;
    routes.set('/flood', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let written = 0;
      res.on('close', () => { floodWritten = written; });
      const pump = (): void => {
        while (written < total) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const start = Date.now();
    const err = await rejection(client.send({ method: 'GET', url: `${base}/flood`, headers: {} }));
    const elapsed = Date.now() - start;
    expect(err.code).toBe('SG_TARGET_TOO_LARGE');
    expect(err.message).toContain('1048576');
    expect(err.message).toContain(`${base}/flood`);
    expect(err.message).toContain('http.maxBodyBytes');
    expect(elapsed).toBeLessThan(1500);
    await new Promise((r) => setTimeout(r, 100));
    // The server saw the connection drop long before it could push 50 MB.
    expect(floodWritten).toBeGreaterThan(0);
    expect(floodWritten).toBeLessThan(total / 4);
  });

  it('refuses a declared Content-Length over the cap before reading', async () => {
    routes.set('/declared', (_req, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    });
    const err = await rejection(client.send({ method: 'GET', url: `${base}/declared`, headers: {} }));
    expect(err.code).toBe('SG_TARGET_TOO_LARGE');
    expect(err.detail?.contentLength).toBe(50 * 1024 * 1024);
  });

  it('does not apply the cap to the Content-Length of a HEAD answer', async () => {
    routes.set('/head', (_req, res) => res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) }).end());
    const res = await client.send({ method: 'HEAD', url: `${base}/head`, headers: {} });
    expect(res.status).toBe(200);
    expect(res.bodyBytes.length).toBe(0);
  });

  it('reports connection refused as unreachable, pointing at the base URL', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    const err = await rejection(client.send({ method: 'GET', url: `http://127.0.0.1:${port}/x`, headers: {} }));
    expect(err.code).toBe('SG_TARGET_UNREACHABLE');
    expect(err.message).toContain(`http://127.0.0.1:${port}/x`);
    expect(err.message).toContain('base URL in the target profile');
  });

  it('reports a reset connection as unreachable', async () => {
    routes.set('/reset', (req) => req.socket.destroy());
    const err = await rejection(client.send({ method: 'GET', url: `${base}/reset`, headers: {} }));
    expect(err.code).toBe('SG_TARGET_UNREACHABLE');
  });

  it('redacts the URL in error messages with the given function', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    const red = createHttpClient({ timeoutMs: 1000, maxBodyBytes: 10, redact: (s) => s.replace('hunter22', '***') });
    try {
      const err = await rejection(red.send({ method: 'GET', url: `http://127.0.0.1:${port}/?key=hunter22`, headers: {} }));
      expect(err.message).not.toContain('hunter22');
      expect(JSON.stringify(err.detail)).not.toContain('hunter22');
    } finally {
      await red.close();
    }
  });

  it('rejects with the caller\'s reason when the caller aborts', async () => {
    routes.set('/slow', () => undefined);
    const ac = new AbortController();
    const reason = new Error('case cancelled');
    setTimeout(() => ac.abort(reason), 50);
    await expect(client.send({ method: 'GET', url: `${base}/slow`, headers: {}, signal: ac.signal })).rejects.toBe(reason);
  });

  it('stops with its case: rejects with the stop\'s reason, and at once when already stopped', async () => {
    routes.set('/slow-stop', () => undefined);
    const send = sendFor(client);
    if (!send) throw new Error('a client made by createHttpClient takes a stop');
    const stop = new CaseStop();
    const reason = new Error('case timed out');
    setTimeout(() => stop.stop(reason), 50);
    await expect(send({ method: 'GET', url: `${base}/slow-stop`, headers: {} }, stop)).rejects.toBe(reason);
    const start = Date.now();
    await expect(send({ method: 'GET', url: `${base}/slow-stop`, headers: {} }, stop)).rejects.toBe(reason);
    expect(Date.now() - start).toBeLessThan(500);
    // any other client is given the case's signal instead
    expect(sendFor({ send: client.send, close: async () => undefined })).toBeUndefined();
  });

  it('reports a URL that is not absolute as a configuration error', async () => {
    const err = await rejection(client.send({ method: 'GET', url: '/relative', headers: {} }));
    expect(err.code).toBe('SG_CONFIG');
  });
});
