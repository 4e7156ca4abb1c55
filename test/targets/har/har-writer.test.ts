import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecgateError } from '../../../src/errors.js';
import { HarLog, type CapturedExchange } from '../../../src/targets/har/har-writer.js';
import { loadHar } from '../../../src/targets/har/load-har.js';
import { tempDir } from '../../e2e/cli.js';

const tmp = tempDir('specgate-har-writer-');
afterAll(() => tmp.remove());

function exchange(over: Partial<CapturedExchange> = {}): CapturedExchange {
  const body = Buffer.from('{"id":"n1","title":"x"}');
  return {
    startedAt: new Date('2025-03-01T10:00:00.000Z'),
    durationMs: 12.5,
    waitMs: 10,
    method: 'POST',
    url: 'http://127.0.0.1:9/v1/notes?limit=2&access_token=query-token-0001',
    httpVersion: 'HTTP/1.1',
    requestHeaders: [
      ['Host', '127.0.0.1:9'],
      ['Authorization', 'Bearer header-token-0002'],
      ['Content-Type', 'application/x-www-form-urlencoded'],
    ],
    requestBody: Buffer.from('title=x&password=form-password-0003'),
    requestSize: 35,
    status: 201,
    statusText: 'Created',
    responseHeaders: [
      ['Content-Type', 'application/json'],
      ['Set-Cookie', 'sid=cookie-session-0004; HttpOnly'],
    ],
    responseBody: body,
    responseSize: body.length,
    ...over,
  };
}

const SECRETS = ['query-token-0001', 'header-token-0002', 'form-password-0003', 'cookie-session-0004'];

describe('HarLog: the HAR file specgate record writes', () => {
  it('writes valid HAR 1.2 that loadHar reads back, with the creator, timings and masked credentials', () => {
    const file = join(tmp.dir, 'one.har');
    const log = new HarLog(file, { name: 'specgate', version: '9.9.9' }, 1024);
    log.add(exchange());
    log.write();
    const text = readFileSync(file, 'utf8');
    for (const s of SECRETS) expect(text).not.toContain(s);
    const har = JSON.parse(text) as { log: { version: string; creator: unknown; entries: Record<string, any>[] } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'specgate', version: '9.9.9' });
    const e = har.log.entries[0] as Record<string, any>;
    expect(e).toMatchObject({ startedDateTime: '2025-03-01T10:00:00.000Z', time: 12.5, timings: { send: 0, wait: 10, receive: 2.5 } });
    expect(e['request']).toMatchObject({
      method: 'POST',
      url: 'http://127.0.0.1:9/v1/notes?limit=2&access_token=***',
      queryString: [{ name: 'limit', value: '2' }, { name: 'access_token', value: '***' }],
      postData: { mimeType: 'application/x-www-form-urlencoded', text: 'title=x&password=***' },
      bodySize: 35,
    });
    expect(e['request'].headers).toContainEqual({ name: 'Authorization', value: '***' });
    expect(e['response']).toMatchObject({ status: 201, statusText: 'Created', content: { size: 23, mimeType: 'application/json', text: '{"id":"n1","title":"x"}' } });
    expect(e['response'].headers).toContainEqual({ name: 'Set-Cookie', value: '***' });

    const rec = loadHar(file);
    expect(rec.creator).toBe('specgate 9.9.9');
    expect(rec.exchanges[0]).toMatchObject({ method: 'POST', status: 201, requestHeaders: { authorization: '***' }, responseBody: { id: 'n1', title: 'x' } });
  });

  it('writes a binary body as base64 with its encoding, a gzip body decoded, and marks a cut body', () => {
    const file = join(tmp.dir, 'bodies.har');
    const log = new HarLog(file, { name: 'specgate', version: '1' }, 8);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]);
    log.add(exchange({ method: 'GET', requestBody: Buffer.alloc(0), requestSize: 0, responseHeaders: [['content-type', 'image/png']], responseBody: png, responseSize: png.length }));
    const zipped = gzipSync('{"a":1}');
    const bigLog = new HarLog(join(tmp.dir, 'gz.har'), { name: 'specgate', version: '1' }, 1024);
    bigLog.add(exchange({ method: 'GET', requestBody: Buffer.alloc(0), requestSize: 0, responseHeaders: [['content-type', 'application/json'], ['content-encoding', 'gzip']], responseBody: zipped, responseSize: zipped.length }));
    log.add(exchange({ method: 'GET', requestBody: Buffer.alloc(0), requestSize: 0, responseHeaders: [['content-type', 'application/json']], responseBody: Buffer.from('{"items":'), responseSize: 4000 }));
    log.write();
    bigLog.write();
    const entries = (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: Record<string, any>[] } }).log.entries;
    expect(entries[0]?.['request']).not.toHaveProperty('postData');
    expect(entries[0]?.['response'].content).toEqual({ size: 6, mimeType: 'image/png', text: png.toString('base64'), encoding: 'base64' });
    expect(entries[1]?.['response'].content).toMatchObject({ size: 4000, text: '{"items":', comment: 'answer body cut: the first 9 of 4000 bytes kept (--max-body 8)', _specgateCut: { kept: 9, size: 4000 } });
    const gz = (JSON.parse(readFileSync(join(tmp.dir, 'gz.har'), 'utf8')) as { log: { entries: Record<string, any>[] } }).log.entries[0];
    expect(gz?.['response'].content).toMatchObject({ size: 7, text: '{"a":1}', compression: 7 - zipped.length });
    // the loader reads both back: the cut body is kept as text but not parsed
    const rec = loadHar(file);
    expect(rec.exchanges[1]).toMatchObject({ responseCut: { parsable: true }, responseText: '{"items":', responseBody: undefined });
    expect(rec.exchanges[1]).not.toHaveProperty('parseError');
  });

  it('records an unanswered request with status 0 and why', () => {
    const file = join(tmp.dir, 'down.har');
    const log = new HarLog(file, { name: 'specgate', version: '1' }, 1024);
    log.add(exchange({ status: 0, statusText: '', waitMs: -1, responseHeaders: [], responseBody: Buffer.alloc(0), responseSize: 0, error: 'http://127.0.0.1:9 did not answer: connect ECONNREFUSED 127.0.0.1:9' }));
    log.write();
    const e = (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: Record<string, any>[] } }).log.entries[0];
    expect(e?.['response']).toMatchObject({ status: 0, comment: expect.stringMatching(/^no answer: .*ECONNREFUSED.*; the client was answered 502$/) });
    expect(e?.['timings']).toMatchObject({ wait: -1, receive: -1 });
    expect(loadHar(file).exchanges[0]?.status).toBe(0);
  });

  it('a file that cannot be written is an SG_USAGE error naming it', () => {
    const dir = join(tmp.dir, 'locked');
    mkdirSync(dir);
    chmodSync(dir, 0o500);
    const log = new HarLog(join(dir, 'x.har'), { name: 'specgate', version: '1' }, 1024);
    let err: unknown;
    try {
      log.write();
    } catch (e) {
      err = e;
    }
    chmodSync(dir, 0o700);
    // root writes anywhere: then there is nothing to refuse
    if (process.getuid?.() === 0) return;
    expect(err).toBeInstanceOf(SpecgateError);
    expect((err as SpecgateError).code).toBe('SG_USAGE');
    expect((err as Error).message).toMatch(/--har .*x\.har: the recording cannot be written \(EACCES\)/);
  });
});
