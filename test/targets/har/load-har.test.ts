import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { SpecgateError } from '../../../src/errors.js';
import { HAR_CAPS, loadHar } from '../../../src/targets/har/load-har.js';
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

const JSON_ANSWER = { 'content-type': 'application/json' };

describe('loadHar', () => {
  it('reads each entry: method, URL, headers by lower-cased name, the answer parsed by content type', () => {
    const file = write('ok.har', harFile([
      harEntry({ method: 'get', url: 'http://127.0.0.1:9/notes?limit=2', requestHeaders: { Authorization: 'Bearer t', ':authority': '127.0.0.1' }, status: 200, responseHeaders: { 'Content-Type': 'application/json', 'Set-Cookie': 'a=1' }, body: '{"items":[],"id":9007199254740993}' }),
      harEntry({ method: 'POST', url: 'http://127.0.0.1:9/notes', requestBody: '{"title":"x"}', status: 201, responseHeaders: { 'content-type': 'application/json' }, body: Buffer.from('{"id":"n1"}').toString('base64'), base64: true }),
    ]));
    const rec = loadHar(file);
    expect(rec.creator).toBe('specgate-test 1.0');
    expect(rec).toMatchObject({ entries: 2, problems: [] });
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

  it('leaves out an entry that breaks HAR 1.2, naming its index, fields, line and what to do; the others are read', () => {
    const bad = harEntry({ status: 200 }) as { request: Record<string, unknown>; response: Record<string, unknown> };
    delete bad.request['headers'];
    bad.response['status'] = '200';
    const doc = harFile([harEntry({ url: 'http://h/a' }), bad, harEntry({ url: 'http://h/c' })]);
    const file = write('bad.har', doc);
    const rec = loadHar(file);
    expect(rec.exchanges.map((x) => [x.index, x.url])).toEqual([[0, 'http://h/a'], [2, 'http://h/c']]);
    expect(rec.entries).toBe(3);
    expect(rec.problems).toHaveLength(1);
    const p = rec.problems[0];
    expect(p?.index).toBe(1);
    expect(p?.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: entry 1: `));
    expect(p?.message).toMatch(/request: missing required key "headers"/);
    expect(p?.message).toMatch(/response\.status: must be integer/);
    expect(p?.message).toMatch(/\(not valid HAR 1\.2\); it is left out — fix the entry or record the traffic again$/);
  });

  it('points at the line of the broken field', () => {
    const doc = harFile([harEntry({}), { ...harEntry({}), time: -5 }]);
    const file = write('line.har', doc);
    const lines = JSON.stringify(doc, null, 2).split('\n');
    const line = lines.findIndex((l) => l.includes('"time": -5')) + 1;
    const [p] = loadHar(file).problems;
    expect(p?.message).toContain(`${file}:${line}:`);
    expect(p?.message).toMatch(/entry 1: time: must be >= -1/);
  });

  it('refuses a file that is not HAR at all — not a JSON object, no log.entries, no creator — and a missing file, saying what to do', () => {
    expect(loadError(write('nolog.har', { log: { version: '1.2', entries: [] } })).message).toMatch(/log: missing required key "creator"/);
    const notJson = loadError(write('text.har', 'GET / HTTP/1.1'));
    expect(notJson.code).toBe('SG_CONFIG');
    expect(notJson.message).toMatch(/not a HAR file: it is not JSON: it begins with "G".*export the recording again/);
    expect(loadError(write('array.har', '[{"log":{}}]')).message).toMatch(/not a HAR file: its top is a JSON array/);
    expect(loadError(write('noentries.har', { log: { version: '1.2', creator: { name: 'x', version: '1' } } })).message).toMatch(/not a HAR file: its log has no entries array \(log\.entries\)/);
    expect(loadError(write('other.har', { openapi: '3.1.0', paths: {} })).message).toMatch(/not a HAR file: it has no log object with entries/);
    expect(loadError(write('empty.har', '  \n')).message).toMatch(/not a HAR file: it is empty/);
    const missing = loadError(join(tmp.dir, 'absent.har'));
    expect(missing.code).toBe('SG_CONFIG');
    expect(missing.message).toMatch(/does not exist; give the path of a HAR file/);
  });

  it('makes each hostile entry a problem of its own — too deep, too large, not JSON, cut short — and reads the rest', () => {
    const good = (n: number): string => JSON.stringify(harEntry({ url: `http://h/${n}`, status: 200, responseHeaders: JSON_ANSWER, body: `{"n":${n}}` }));
    const deepStructure = JSON.stringify({ ...harEntry({}), _deep: 'X' }).replace('"X"', `${'['.repeat(100_001)}${']'.repeat(100_001)}`);
    const deepBody = JSON.stringify(harEntry({ status: 200, responseHeaders: JSON_ANSWER, body: `${'['.repeat(100_001)}${']'.repeat(100_001)}` }));
    const huge = JSON.stringify(harEntry({ status: 200, responseHeaders: JSON_ANSWER, body: `"${'a'.repeat(600_000)}"` }));
    const notJson = '{"startedDateTime": tru}';
    const cutShort = good(9).slice(0, 200);
    const text = `{"log":{"version":"1.2","creator":{"name":"hostile","version":"1"},"entries":[\n${[good(0), deepStructure, good(2), deepBody, huge, notJson, good(6), cutShort].join(',\n')}`;
    const rec = loadHar(write('hostile.har', text), { ...HAR_CAPS, maxEntryBytes: 500_000 });
    expect(rec.exchanges.map((x) => [x.index, x.responseBody])).toEqual([[0, { n: 0 }], [2, { n: 2 }], [6, { n: 6 }]]);
    expect(rec.entries).toBe(8);
    const byIndex = Object.fromEntries(rec.problems.map((p) => [p.index, p.message]));
    expect(Object.keys(byIndex)).toEqual(['1', '3', '4', '5', '7']);
    expect(byIndex[1]).toMatch(/:3:1: entry 1: it nests JSON 100002 levels deep, beyond specgate's limit of 256; it is left out/);
    expect(byIndex[3]).toMatch(/:5:1: entry 3: the answer of entry 3 nests JSON 100001 levels deep, beyond specgate's limit of 256; it is left out/);
    expect(byIndex[4]).toMatch(/:6:1: entry 4: it is \d+ bytes, over the cap of 500000 bytes a recorded exchange may take; it is left out/);
    expect(byIndex[5]).toMatch(/:7:1: entry 5: it is not JSON \(.*\); it is left out/);
    expect(byIndex[7]).toMatch(/:9:1: entry 7: the file ends inside this entry: it is cut short .*the entries before it are judged/);
  });

  it('reports a file cut short between entries or broken after them as a problem of the file, after reading every entry', () => {
    const one = JSON.stringify(harEntry({ url: 'http://h/1' }));
    const between = loadHar(write('between.har', `{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[${one},${one}`));
    expect(between.exchanges).toHaveLength(2);
    expect(between.problems).toEqual([{ message: expect.stringMatching(/between\.har: the file ends before log\.entries closes \(after entry 1\)/) }]);
    const garbage = loadHar(write('garbage.har', `{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[${one}] x}`));
    expect(garbage.exchanges).toHaveLength(1);
    expect(garbage.problems[0]?.message).toMatch(/line 1, column \d+: "x" where "," or "}" belongs; the file is read no further/);
    // the creator may come after the entries, as JSON leaves the order of keys free
    expect(loadHar(write('late.har', `{"log":{"entries":[${one}],"version":"1.2","creator":{"name":"late","version":"2"}}}`)).creator).toBe('late 2');
  });

  it('keeps a body over the cap cut and marked, unparsed; other bodies only to a preview; request bodies decoded or rebuilt from params', () => {
    const big = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: `n${i}` })) });
    const png = Buffer.alloc(50_000, 7).toString('base64');
    const form = { ...harEntry({ method: 'POST' }), request: { ...(harEntry({ method: 'POST' })['request'] as object), postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'a b', value: 'x&y' }, { name: 'flag' }] } } };
    const b64req = { ...harEntry({ method: 'PUT' }), request: { ...(harEntry({ method: 'PUT' })['request'] as object), postData: { mimeType: 'application/json', text: Buffer.from('{"t":"é"}').toString('base64'), _encoding: 'base64' } } };
    const file = write('caps.har', harFile([
      harEntry({ status: 200, responseHeaders: JSON_ANSWER, body: big }),
      harEntry({ status: 200, responseHeaders: { 'content-type': 'image/png' }, body: png, base64: true }),
      form,
      b64req,
    ]));
    const rec = loadHar(file, { ...HAR_CAPS, maxBodyBytes: 1000, maxOtherBodyBytes: 100 });
    const [json, image, posted, put] = rec.exchanges;
    expect(json?.responseCut).toEqual({ size: big.length, parsable: true });
    expect(json?.responseText).toBe(big.slice(0, 1000));
    expect(json?.responseBody).toBeUndefined();
    expect(json?.parseError).toBeUndefined();
    expect(image?.responseCut).toEqual({ size: 50_000, parsable: false });
    expect(Buffer.byteLength(image?.responseText ?? '')).toBeLessThanOrEqual(300);
    expect(posted?.requestBody).toBe('a+b=x%26y&flag=');
    expect(put?.requestBody).toBe('{"t":"é"}');
  });

  it('marks a request body cut: over the cap, or cut by `specgate record` (_specgateCut on postData)', () => {
    const post = (postData: Record<string, unknown>): Record<string, unknown> => ({ ...harEntry({ method: 'POST' }), request: { ...(harEntry({ method: 'POST' })['request'] as object), postData } });
    const big = JSON.stringify({ title: 'x'.repeat(3000) });
    const file = write('request-cut.har', harFile([
      post({ mimeType: 'application/json', text: big }),
      post({ mimeType: 'application/json', text: '{"title":"xx', _specgateCut: { kept: 12, size: 5000 } }),
      post({ mimeType: 'application/json', text: '{"title":"whole"}' }),
    ]));
    const [capped, recorded, whole] = loadHar(file, { ...HAR_CAPS, maxBodyBytes: 1000 }).exchanges;
    expect(capped).toMatchObject({ requestBody: big.slice(0, 1000), requestCut: big.length });
    expect(recorded).toMatchObject({ requestBody: '{"title":"xx', requestCut: 5000 });
    expect(whole?.requestBody).toBe('{"title":"whole"}');
    expect(whole).not.toHaveProperty('requestCut');
  });

  it('finds every entry whatever falls on a read boundary: escaped quotes and backslashes, non-ASCII text, pretty or compact', () => {
    const tricky = ['"', '\\', '\\"', '\\\\"', 'é日本', '}]{[', '\u2028'];
    const bodies = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i, s: `${tricky[i % tricky.length]}${'x'.repeat(i % 1500)}${tricky[(i + 3) % tricky.length]}` }));
    const doc = harFile(bodies.map((body, i) => harEntry({ url: `http://h/${i}`, status: 200, responseHeaders: JSON_ANSWER, body })));
    for (const [name, text] of [['compact.har', JSON.stringify(doc)], ['pretty.har', JSON.stringify(doc, null, 1)]] as const) {
      expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
      const rec = loadHar(write(name, text));
      expect(rec.problems).toEqual([]);
      expect(rec.exchanges.map((x) => x.responseText)).toEqual(bodies);
    }
  });
});

describe('recordings as real recorders write them', () => {
  const fixture = (name: string): string => fromRoot('test', 'fixtures', 'har', name);

  it("mitmproxy 8's har_dump: a request body as both postData.text and params (the form decoded), the charset in mimeType; the text is read as sent", () => {
    // the shape of each entry as that add-on writes it for POST, PUT and PATCH (all fields, written here by hand)
    const entry = (url: string, contentType: string, text: string, params: { name: string; value: string }[]): Record<string, unknown> => ({
      startedDateTime: '2026-01-02T03:04:05.678901+00:00',
      time: 12.5,
      request: {
        method: 'POST',
        url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'Host', value: '127.0.0.1:8080' }, { name: 'content-type', value: contentType }, { name: 'content-length', value: String(Buffer.byteLength(text)) }],
        queryString: [],
        headersSize: 120,
        bodySize: Buffer.byteLength(text),
        postData: { mimeType: contentType, text, params },
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'content-type', value: 'application/json' }],
        content: { size: 11, compression: 0, mimeType: 'application/json', text: '{"ok":true}' },
        redirectURL: '',
        headersSize: 60,
        bodySize: 11,
      },
      cache: {},
      timings: { send: 0, receive: 1.5, wait: 10, connect: -1, ssl: -1 },
      serverIPAddress: '127.0.0.1',
    });
    const file = write('mitmproxy.har', {
      log: {
        version: '1.2',
        creator: { name: 'mitmproxy har_dump', version: '0.1', comment: 'mitmproxy version mitmproxy 8.1.1' },
        entries: [
          entry('http://127.0.0.1:8080/form', 'application/x-www-form-urlencoded', 'a+b=x%26y&flag=&name=Jos%C3%A9', [{ name: 'a b', value: 'x&y' }, { name: 'flag', value: '' }, { name: 'name', value: 'José' }]),
          entry('http://127.0.0.1:8080/json', 'application/json; charset=utf-8', '{"title":"café","n":1}', []),
          entry('http://127.0.0.1:8080/empty', '', '', []),
        ],
      },
    });
    const rec = loadHar(file);
    expect(rec).toMatchObject({ creator: 'mitmproxy har_dump 0.1', entries: 3, problems: [] });
    const [form, json, empty] = rec.exchanges;
    // the text as sent, not the params rebuilt (which would encode the space and the é their own way)
    expect(form).toMatchObject({ method: 'POST', requestBody: 'a+b=x%26y&flag=&name=Jos%C3%A9', requestHeaders: { 'content-type': 'application/x-www-form-urlencoded' }, responseBody: { ok: true }, durationMs: 12.5 });
    expect(Object.fromEntries(new URLSearchParams(form?.requestBody))).toEqual({ 'a b': 'x&y', flag: '', name: 'José' });
    expect(json?.requestBody).toBe('{"title":"café","n":1}');
    expect(JSON.parse(json?.requestBody ?? '')).toEqual({ title: 'café', n: 1 });
    expect(empty?.requestBody).toBe('');
    for (const x of rec.exchanges) expect(x).not.toHaveProperty('requestCut');
  });

  it('Chromium DevTools: _ fields, HTTP/2 pseudo-headers, base64 content, a form as params without text, time -1', () => {
    const rec = loadHar(fixture('chromium-devtools.har'));
    expect(rec).toMatchObject({ creator: 'WebInspector 537.36', entries: 2, problems: [] });
    const [get, login] = rec.exchanges;
    expect(get).toMatchObject({ method: 'GET', url: 'https://api.example.test/v1/notes/n1', status: 200, startedDateTime: '2025-03-04T10:00:01.000Z', responseBody: { id: 'n1', title: 'groceries' }, responseHeaders: { date: 'Tue, 04 Mar 2025 10:00:01 GMT' } });
    expect(Object.keys(get?.requestHeaders ?? {}).sort()).toEqual(['accept', 'authorization']);
    expect(get?.responseHeaders).not.toHaveProperty(':status');
    expect(login).toMatchObject({ method: 'POST', status: 302, requestBody: 'user=ann+lee&next=%2Fa%26b', durationMs: 0 });
  });

  it('Playwright: _frameref and _monotonicTime, a body kept in a file of its own, an entry without timings', () => {
    const rec = loadHar(fixture('playwright.har'));
    expect(rec).toMatchObject({ creator: 'Playwright 1.49.0', entries: 2, problems: [] });
    const [created, logo] = rec.exchanges;
    expect(created).toMatchObject({ status: 201, requestBody: '{"title":"groceries","body":"milk"}', responseBody: { id: 'n1' }, responseHeaders: { date: 'Tue, 04 Mar 2025 11:00:01 GMT' }, durationMs: 0 });
    expect(logo).toMatchObject({ status: 200, responseBody: undefined });
    expect(logo?.responseText).toBeUndefined();
  });

  it('Firefox: pageref, cookie arrays, repeated Set-Cookie, _securityState', () => {
    const rec = loadHar(fixture('firefox.har'));
    expect(rec).toMatchObject({ creator: 'Firefox 128.0', entries: 1, problems: [] });
    expect(rec.exchanges[0]).toMatchObject({ url: 'https://api.example.test/notes?limit=2', startedDateTime: '2025-03-04T12:00:01.000+01:00', responseBody: { items: [], next: null }, responseHeaders: { 'set-cookie': ['seen=1; Path=/', 'theme=dark; Path=/'], date: 'Tue, 04 Mar 2025 11:00:01 GMT' }, durationMs: 31 });
  });

  it('mitmproxy: serverIPAddress, connection, base64 content', () => {
    const rec = loadHar(fixture('mitmproxy.har'));
    expect(rec).toMatchObject({ creator: 'mitmproxy 10.4.2', entries: 1, problems: [] });
    expect(rec.exchanges[0]).toMatchObject({ method: 'PATCH', requestBody: '{"title":"shopping"}', responseBody: { id: 'n1', title: 'shopping' }, responseHeaders: { date: 'Tue, 04 Mar 2025 13:00:00 GMT' } });
  });
});
