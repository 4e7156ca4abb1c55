import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeExchange } from '../../src/targets/node-exchange.js';
import { rejection } from '../helpers/rejection.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const routes = new Map<string, Handler>();
const sockets = new Set<Socket>();
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const h = routes.get(req.url?.split('?')[0] ?? '');
      if (h) h(req, res, Buffer.concat(chunks).toString('utf8'));
      else res.writeHead(404).end();
    });
  });
  server.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

/** Answers what arrived: method, URL, the raw header names in order, and the body. */
routes.set('/echo', (req, res, body) => {
  const text = JSON.stringify({ method: req.method, url: req.url, headers: req.headers, names: req.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase()), body });
  res.writeHead(201, { 'content-type': 'application/json', 'x-twice': ['a', 'b'] }).end(text);
});
routes.set('/moved', (_req, res) => res.writeHead(302, { location: '/echo' }).end('moved'));
routes.set('/silent', () => undefined);
routes.set('/half', (_req, res) => {
  res.writeHead(200, { 'content-length': '100' });
  res.write('only part');
});
routes.set('/cut', (req, res) => {
  res.writeHead(200, { 'content-length': '100' });
  res.write('only part', () => req.socket.destroy());
});

describe('nodeExchange', () => {
  it('sends exactly the headers given, a body with its length, and reads status, headers and text', async () => {
    const a = await nodeExchange(`${base}/echo?x=1`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: 'a=b&c=ü' });
    expect(a.status).toBe(201);
    const seen = JSON.parse(a.text) as { method: string; url: string; headers: Record<string, string>; names: string[]; body: string };
    expect(seen).toMatchObject({ method: 'POST', url: '/echo?x=1', body: 'a=b&c=ü' });
    expect(seen.headers['content-length']).toBe(String(Buffer.byteLength('a=b&c=ü')));
    // nothing implicit: no User-Agent, Accept-Encoding, Accept-Language or Sec-Fetch-Mode
    expect(seen.names.sort()).toEqual(['accept', 'connection', 'content-length', 'content-type', 'host']);
    expect(a.headers.get('Content-Type')).toBe('application/json');
    expect(a.headers.get('x-twice')).toBe('a, b');
    expect(a.headers.get('x-none')).toBeNull();
  });

  it('sends a GET with no header of its own but Host and Connection', async () => {
    const seen = JSON.parse((await nodeExchange(new URL(`${base}/echo`))).text) as { method: string; names: string[] };
    expect(seen.method).toBe('GET');
    expect(seen.names.sort()).toEqual(['connection', 'host']);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const a = await nodeExchange(`${base}/moved`);
    expect(a.status).toBe(302);
    expect(a.headers.get('location')).toBe('/echo');
    expect(a.text).toBe('moved');
  });

  it('times out a server that never answers, naming the request and the deadline', async () => {
    const e = await rejection(nodeExchange(`${base}/silent`, { method: 'POST', body: '{}', timeoutMs: 200 }));
    expect(e.code).toBe('SG_TARGET_TIMEOUT');
    expect(e.message).toBe(`POST ${base}/silent did not answer within 0.2 s`);
  });

  it('bounds the body too: an answer whose body stops coming times out saying it began', async () => {
    const e = await rejection(nodeExchange(`${base}/half`, { timeoutMs: 200 }));
    expect(e.code).toBe('SG_TARGET_TIMEOUT');
    expect(e.message).toBe(`GET ${base}/half answered 200 but its body did not arrive (not within 0.2 s)`);
  });

  it('rejects an answer cut off mid-body', async () => {
    const e = await rejection(nodeExchange(`${base}/cut`, { timeoutMs: 5000 }));
    expect(e.code).toBe('SG_TARGET_TIMEOUT');
    expect(e.message).toMatch(new RegExp(`^GET ${base}/cut answered 200 but its body did not arrive \\(.+\\)$`));
  });

  it('says a connection failure is one, with the reason', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const e = await rejection(nodeExchange(`http://127.0.0.1:${port}/x`, { timeoutMs: 2000 }));
    expect(e.code).toBe('SG_TARGET_UNREACHABLE');
    expect(e.message).toBe(`GET http://127.0.0.1:${port}/x failed (connect ECONNREFUSED 127.0.0.1:${port})`);
  });

  it('refuses a URL that is not http or https', async () => {
    const e = await rejection(nodeExchange('ftp://127.0.0.1/x'));
    expect(e.code).toBe('SG_TARGET_UNREACHABLE');
  });
});
