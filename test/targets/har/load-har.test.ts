import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecgateError, SpecgateErrorList } from '../../../src/errors.js';
import { loadHar } from '../../../src/targets/har/load-har.js';
import { tempDir } from '../../e2e/cli.js';
import { harEntry, harFile } from './har-builder.js';

const tmp = tempDir('specgate-har-');
afterAll(() => tmp.remove());

function write(name: string, content: unknown): string {
  const file = join(tmp.dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function loadError(file: string): SpecgateError {
  try {
    loadHar(file);
  } catch (e) {
    if (e instanceof SpecgateError) return e;
    throw e;
  }
  throw new Error('expected loadHar to refuse the file');
}

describe('loadHar', () => {
  it('reads each entry: method, URL, headers by lower-cased name, the answer parsed by content type', () => {
    const file = write('ok.har', harFile([
      harEntry({ method: 'get', url: 'http://127.0.0.1:9/notes?limit=2', requestHeaders: { Authorization: 'Bearer t', ':authority': '127.0.0.1' }, status: 200, responseHeaders: { 'Content-Type': 'application/json', 'Set-Cookie': 'a=1' }, body: '{"items":[],"id":9007199254740993}' }),
      harEntry({ method: 'POST', url: 'http://127.0.0.1:9/notes', requestBody: '{"title":"x"}', status: 201, responseHeaders: { 'content-type': 'application/json' }, body: Buffer.from('{"id":"n1"}').toString('base64'), base64: true }),
    ]));
    const rec = loadHar(file);
    expect(rec.creator).toBe('specgate-test 1.0');
    expect(rec.exchanges).toHaveLength(2);
    const [a, b] = rec.exchanges;
    expect(a).toMatchObject({ index: 0, method: 'GET', url: 'http://127.0.0.1:9/notes?limit=2', status: 200, requestHeaders: { authorization: 'Bearer t' }, responseHeaders: { 'content-type': 'application/json', 'set-cookie': ['a=1'] } });
    expect(a?.requestHeaders).not.toHaveProperty(':authority');
    expect(a?.responseBody).toEqual({ items: [], id: 9007199254740993n });
    expect(b).toMatchObject({ index: 1, method: 'POST', requestBody: '{"title":"x"}', status: 201, responseText: '{"id":"n1"}', responseBody: { id: 'n1' } });
  });

  it('keeps a body that does not parse as its type claims as a finding, not a load error', () => {
    const file = write('garbled.har', harFile([harEntry({ status: 200, responseHeaders: { 'content-type': 'application/json' }, body: '{"broken"' })]));
    const [x] = loadHar(file).exchanges;
    expect(x?.responseBody).toBeUndefined();
    expect(x?.parseError).toMatch(/json body does not parse/);
  });

  it('names the entry index and field of every violation, with file:line:column (SG_CONFIG)', () => {
    const bad = harEntry({ status: 200 }) as { request: Record<string, unknown>; response: Record<string, unknown> };
    delete bad.request['headers'];
    bad.response['status'] = '200';
    const file = write('bad.har', harFile([harEntry({}), bad]));
    const e = loadError(file);
    expect(e).toBeInstanceOf(SpecgateErrorList);
    const messages = (e as SpecgateErrorList).errors.map((x) => x.message);
    expect(messages).toHaveLength(2);
    expect(messages.every((m) => m.startsWith(`${file}:`) && m.includes('not valid HAR 1.2'))).toBe(true);
    expect(messages.find((m) => m.includes('request'))).toMatch(/:\d+:\d+: entry 1: request: missing required key "headers"/);
    expect(messages.find((m) => m.includes('status'))).toMatch(/:\d+:\d+: entry 1: response\.status: must be integer/);
    expect((e as SpecgateErrorList).errors.every((x) => x.code === 'SG_CONFIG')).toBe(true);
  });

  it('points at the line of the broken field', () => {
    const file = write('line.har', harFile([{ ...harEntry({}), time: -5 }]));
    const e = loadError(file);
    const line = JSON.stringify(harFile([{ ...harEntry({}), time: -5 }]), null, 2).split('\n').findIndex((l) => l.includes('"time": -5')) + 1;
    expect(e.message).toContain(`${file}:${line}:`);
    expect(e.message).toMatch(/entry 0: time: must be >= 0/);
  });

  it('refuses a file without log.creator or entries, a non-JSON file and a missing file, saying what to do', () => {
    expect(loadError(write('nolog.har', { log: { version: '1.2', entries: [] } })).message).toMatch(/log: missing required key "creator"/);
    const notJson = loadError(write('text.har', 'GET / HTTP/1.1'));
    expect(notJson.code).toBe('SG_CONFIG');
    expect(notJson.message).toMatch(/not a HAR file: it is not JSON .*export the recording again/);
    const missing = loadError(join(tmp.dir, 'absent.har'));
    expect(missing.code).toBe('SG_CONFIG');
    expect(missing.message).toMatch(/does not exist; give the path of a HAR file/);
  });
});
