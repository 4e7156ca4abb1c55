import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJsonReporter, renderJson } from '../../src/reporting/json.js';
import { normalize, portableInteger, stringifyJson } from '../../src/reporting/json-text.js';
import { eventsFor, makeRunResult } from '../fixtures/reporting/run-result.js';
import { inexactNumbers, numberLiterals } from '../helpers/json-numbers.js';

describe('stringifyJson', () => {
  it('writes bigint as an exact JSON number', () => {
    expect(stringifyJson({ id: 9007199254740993n, neg: -123456789012345678901234567890n })).toBe(
      '{"id":9007199254740993,"neg":-123456789012345678901234567890}',
    );
  });

  it('with portableIntegers, writes an integer a double cannot hold as a string of its digits, and the others as numbers', () => {
    const v = { small: 5n, edge: 9007199254740991n, over: 9007199254740992n, neg: -9007199254740993n, long: 10n ** 40n, list: [-9007199254740991n] };
    const text = stringifyJson(v, 0, { portableIntegers: true });
    expect(text).toBe('{"small":5,"edge":9007199254740991,"over":"9007199254740992","neg":"-9007199254740993","long":"10000000000000000000000000000000000000000","list":[-9007199254740991]}');
    expect(inexactNumbers(text)).toEqual([]);
    // 2^53 itself survives a double, but so would 2^53 + 1 as it: past 2^53 - 1 no integer is taken as exact
    expect(inexactNumbers(stringifyJson(v))).toEqual(['-9007199254740993', '10000000000000000000000000000000000000000']);
    expect([portableInteger(-(2n ** 53n) + 1n), portableInteger(2n ** 53n)]).toEqual([-9007199254740991, '9007199254740992']);
  });

  it('matches JSON.stringify on plain values, compact and indented', () => {
    const v = { a: [1, 'two', null, true, { b: [] }], c: {}, 'd"e': 'x\u0000\ud800', f: undefined, g: -0, h: 1e21 };
    expect(stringifyJson(v)).toBe(JSON.stringify(v));
    expect(stringifyJson(v, 2)).toBe(JSON.stringify(v, null, 2));
  });

  it('turns values JSON cannot hold into plain JSON instead of throwing', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const v = {
      bytes: new Uint8Array([0, 255, 16]),
      map: new Map<string, bigint>([['k', 1n]]),
      set: new Set([1]),
      err: Object.assign(new Error('boom'), { code: 'E1' }),
      nan: Number.NaN,
      fn: () => 1,
      date: new Date('2025-01-01T00:00:00Z'),
      cyclic,
      arr: [undefined, Symbol('s')],
    };
    expect(JSON.parse(stringifyJson(v))).toEqual({
      bytes: { $bytes: 'AP8Q' },
      map: [['k', 1]],
      set: [1],
      err: { name: 'Error', message: 'boom', code: 'E1' },
      nan: null,
      date: '2025-01-01T00:00:00.000Z',
      cyclic: { name: 'loop', self: '[Circular]' },
      arr: [null, null],
    });
  });

  it('keeps a "__proto__" key from a captured body as data', () => {
    const body = JSON.parse('{"__proto__":{"admin":true}}') as unknown;
    expect(stringifyJson(body)).toBe('{"__proto__":{"admin":true}}');
    expect(Object.getPrototypeOf(normalize(body))).toBe(Object.prototype);
  });
});

describe('renderJson', () => {
  const text = renderJson(makeRunResult(), '9.9.9');
  const report = JSON.parse(text) as Record<string, unknown> & {
    requirements: Record<string, unknown>[];
    suites: { name: string; error: unknown; cases: Record<string, unknown>[] }[];
  };

  it('has the documented top-level shape', () => {
    expect(Object.keys(report)).toEqual(['specgate', 'startedAt', 'durationMs', 'seed', 'strict', 'stricter', 'summary', 'requirements', 'suites']);
    expect(report.specgate).toEqual({ version: '9.9.9', format: 1 });
    expect(report.seed).toBe(1337);
    expect(report.summary).toMatchObject({ exitCode: 1, gatingFailures: 2 });
  });

  it('gives every requirement id, suite, level, status, cases and failures, with stable optional fields', () => {
    expect(report.requirements).toHaveLength(10);
    for (const r of report.requirements) {
      for (const key of ['id', 'suite', 'level', 'status', 'cases', 'failures', 'text', 'source', 'reason', 'stale', 'baseline']) {
        expect(r, `${String(r.id)} lacks ${key}`).toHaveProperty(key);
      }
      expect(['passed', 'failed', 'untested', 'excluded', 'expected-failure']).toContain(r.status);
    }
    const byId = new Map(report.requirements.map((r) => [r.id, r]));
    expect(byId.get('OAUTH-STATE-ECHO')).toMatchObject({ status: 'passed', stale: true, baseline: { reason: 'was broken in 1.2' } });
    expect(byId.get('OAUTH-ERROR-URI')).toMatchObject({ status: 'excluded', reason: 'payload not shown in the spec', stale: false, baseline: null });
    expect(byId.get('OAUTH-PKCE-PLAIN')).toMatchObject({ status: 'expected-failure', cases: ['pkce-plain-rejected'] });
  });

  it('lists suites with name, target, duration, error and cases', () => {
    expect(report.suites.map((s) => s.name)).toEqual(['oauth', 'plugin']);
    expect(report.suites[0]?.error).toBeNull();
    expect(report.suites[1]?.error).toMatchObject({ code: 'SG_TARGET_UNREACHABLE' });
    expect(report.suites[0]?.cases.map((c) => c.outcome)).toEqual(['passed', 'failed', 'failed', 'skipped', 'failed', 'passed', 'errored']);
  });

  it('writes int64 values from target bodies with every digit, as strings any JSON reader takes exactly', () => {
    expect(text).toContain('"id": "9007199254740993"');
    expect(text).toContain('"id": "123456789012345678901234567890"');
    expect(text).not.toContain('9007199254740992');
    // every number left in the report is one a double holds as written
    expect(numberLiterals(text).length).toBeGreaterThan(10);
    expect(inexactNumbers(text)).toEqual([]);
  });

  it('records the version of each suite: its own when it declares one, else specgate\'s', () => {
    const run = makeRunResult();
    const plugin = run.suites[1];
    if (!plugin) throw new Error('fixture changed');
    plugin.version = '2.0.0';
    const written = JSON.parse(renderJson(run, '9.9.9')) as { suites: { name: string; version: string }[] };
    expect(written.suites.map((s) => [s.name, s.version])).toEqual([['oauth', '9.9.9'], ['plugin', '2.0.0']]);
    expect(report.suites.map((s) => s['version' as keyof typeof s])).toEqual(['9.9.9', '9.9.9']);
  });

  it('keeps hostile strings intact (JSON can hold them, escaped)', () => {
    expect(text).toContain('nul\\u0000 bell\\u0007 emoji😀 lone\\ud800 cdata]]> end');
  });

  it('is what createJsonReporter writes in finish(), and nothing without run-finish', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'specgate-json-'));
    const reporter = createJsonReporter(join(dir, 'a', 'b', 'report.json'));
    for (const e of eventsFor(makeRunResult())) reporter.onEvent(e);
    await reporter.finish();
    const written = JSON.parse(readFileSync(join(dir, 'a', 'b', 'report.json'), 'utf8')) as { requirements: unknown[] };
    expect(written.requirements).toHaveLength(10);

    const idle = createJsonReporter(join(dir, 'none.json'));
    await idle.finish();
    expect(() => readFileSync(join(dir, 'none.json'))).toThrow(/ENOENT/);
  });
});
