import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/engine/model.js';
import { CUT_MARK, MASK, SECRET_VARIABLE, curlCommand, curlNote, exchangeLines, exchangeOf, exchangesToShow, sameExchange } from '../../src/reporting/exchange-text.js';
import { MASK as TARGETS_MASK } from '../../src/targets/redact.js';
import { CUT_MARK as TARGETS_CUT_MARK } from '../../src/targets/text-cut.js';

function http(request: Record<string, unknown>, response: Record<string, unknown> = { status: 200, headers: {}, body: '' }, durationMs = 3): Exchange {
  return { kind: 'http', summary: `${String(request['method'])} ${String(request['url'])} -> ${String(response['status'])}`, request, response, durationMs };
}

/** What bash makes of a command's words (printf prints each argument on a line of its own). */
function wordsOf(command: string, env: Record<string, string> = {}): string[] {
  const r = spawnSync('bash', ['-c', `printf '%s\\n' ${command.replace(/^curl /, '')}`], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', ...env } });
  return r.stdout.split('\n').slice(0, -1);
}

it('spells masks and cuts as the targets write them into exchanges', () => {
  expect([MASK, CUT_MARK]).toEqual([TARGETS_MASK, TARGETS_CUT_MARK]);
});

describe('exchangeOf', () => {
  const own = http({ method: 'GET', url: 'http://t/own', headers: {} });
  const first = http({ method: 'GET', url: 'http://t/1', headers: {} });
  const last = http({ method: 'POST', url: 'http://t/2', headers: {} });
  const query: Exchange = { kind: 'query', summary: 'SELECT 1' };

  it('is the failure\'s own exchange, else the last HTTP one of its case, else the case\'s last', () => {
    expect(exchangeOf({ exchanges: [first, last] }, { exchange: own })).toBe(own);
    expect(exchangeOf({ exchanges: [first, last, query] }, {})).toBe(last);
    expect(exchangeOf({ exchanges: [query] }, {})).toBe(query);
    expect(exchangeOf({ exchanges: [] }, {})).toBeUndefined();
  });

  it('shows each exchange once for the failures judged on it in a row', () => {
    const copy = { ...first };
    expect(exchangesToShow({ exchanges: [last], failures: [{ exchange: first }, { exchange: copy }, {}, {}, { exchange: first }] })).toEqual([[first], [undefined], [last], [undefined], [first]]);
  });

  it('shows the exchanges of a failure made of several assertions per assertion, once in a row', () => {
    const grouped = { exchange: first, assertions: [{ exchange: first }, { exchange: { ...first } }, { exchange: last }, {}] };
    expect(exchangesToShow({ exchanges: [], failures: [grouped, { exchange: last }] })).toEqual([[first, undefined, last, first], [last]]);
  });

  it('tells a copy of an exchange from another one', () => {
    expect(sameExchange(first, { ...first })).toBe(true);
    expect(sameExchange(first, last)).toBe(false);
    expect(sameExchange(first, { ...first, durationMs: 4 })).toBe(false);
    expect(sameExchange(first, undefined)).toBe(false);
  });
});

describe('exchangeLines', () => {
  it('shows the request line, headers and body head, then the answer without the connection\'s headers', () => {
    const x = http(
      { method: 'POST', url: 'http://t/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=' },
      { status: 400, headers: { 'content-type': 'application/json', date: 'Sun, 01 Mar 2026 12:00:00 GMT', connection: 'keep-alive' }, body: '{"error":\n "invalid_request"}' },
    );
    expect(exchangeLines(x)).toEqual([
      'Request: POST http://t/token',
      '  content-type: application/x-www-form-urlencoded',
      '  body: grant_type=authorization_code&code=',
      'Answer: 400',
      '  content-type: application/json',
      '  body: {"error": "invalid_request"}',
    ]);
  });

  it('cuts long bodies to their head and leaves other kinds of exchange to their summary', () => {
    const lines = exchangeLines(http({ method: 'GET', url: 'http://t/', headers: {} }, { status: 200, headers: {}, body: 'x'.repeat(1000) }), 50) ?? [];
    expect(lines.at(-1)).toBe(`  body: ${'x'.repeat(50)}…`);
    expect(exchangeLines({ kind: 'exec', summary: 'plugin exited 1' })).toBeUndefined();
  });
});

describe('curlCommand', () => {
  it('sends the same method, URL, headers and body, quoted so that the shell passes them unchanged', () => {
    const body = `{"name":"O'Brien $HOME \`id\`","n":1}`;
    const cmd = curlCommand(http({ method: 'POST', url: 'http://127.0.0.1:9/items?a=1&b=2', headers: { 'content-type': 'application/json', 'content-length': '40', 'x-note': "it's" }, body })) ?? '';
    expect(wordsOf(cmd)).toEqual(['-sS', '-i', '-X', 'POST', 'http://127.0.0.1:9/items?a=1&b=2', '-H', 'content-type: application/json', '-H', "x-note: it's", '--data-raw', body]);
    expect(curlNote(cmd)).toBeUndefined();
  });

  it('reads a masked secret from $SPECGATE_SECRET, never showing it, and says so', () => {
    const cmd = curlCommand(http({ method: 'GET', url: 'http://t/echo?key=***', headers: { authorization: 'Bearer ***', 'x-api-key': '***' } })) ?? '';
    expect(cmd).toContain(`"$${SECRET_VARIABLE}"`);
    expect(wordsOf(cmd, { [SECRET_VARIABLE]: 's3cr3t' })).toEqual(['-sS', '-i', 'http://t/echo?key=s3cr3t', '-H', 'authorization: Bearer s3cr3t', '-H', 'x-api-key: s3cr3t']);
    expect(curlNote(cmd)).toContain(`set ${SECRET_VARIABLE} first`);
  });

  it('gives none for a body the report holds only the head of, nor for what is not HTTP', () => {
    expect(curlCommand(http({ method: 'POST', url: 'http://t/', headers: {}, body: 'abc… (5000 more characters)' }))).toBeUndefined();
    expect(curlCommand({ kind: 'command', summary: 'find' })).toBeUndefined();
  });
});
