/**
 * Memory and stack bounded by the input, not by its shape: a plugin answering ten thousand
 * rule-breaking files, under a small heap, ends with a bounded failure; a target answering JSON
 * nested thousands of levels deep is a target-protocol fault with a message that says so, never
 * a stack overflow; reports of deeply nested values are rendered to a bounded depth.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, caseOf, demoSection, readReport, reportOf, runCli, runDemo, tempDir, writeProfile, type CliResult } from './cli.js';

const tmp = tempDir();
const servers: Server[] = [];
beforeAll(() => assertBuilt());
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  tmp.remove();
});

/** No stack trace, no heap exhaustion, no "bug" banner: what a user must never see. */
function expectNoCrash(res: CliResult): void {
  const all = res.stdout + res.stderr;
  expect(all).not.toMatch(/heap out of memory|Maximum call stack|RangeError|this is a bug|\n\s+at [^\n]+:\d+:\d+\)?\n/);
}

describe('a plugin answering ten thousand rule-breaking files', () => {
  const FILES = 10_000;

  /**
   * A plugin (plain Node, no dependencies) that reads its request and answers a
   * CodeGeneratorResponse whose every file has an absolute name, encoded by hand:
   * `file` is field 15 of the response, `name` field 1 and `content` field 15 of a File.
   */
  function writeFloodPlugin(): string {
    const file = join(tmp.dir, 'flood-plugin.cjs');
    writeFileSync(
      file,
      `const N = ${FILES};
const varint = (n) => { const b = []; while (n > 127) { b.push((n & 127) | 128); n >>>= 7; } b.push(n); return Buffer.from(b); };
const field = (tag, bytes) => Buffer.concat([varint(tag), varint(bytes.length), bytes]);
process.stdin.on('data', () => {});
process.stdin.on('end', () => {
  const files = [];
  for (let i = 0; i < N; i++) files.push(field(122, Buffer.concat([field(0x0a, Buffer.from('/abs/gen-' + i + '.txt')), field(122, Buffer.from('x'))])));
  process.stdout.write(Buffer.concat(files));
});
`,
    );
    return file;
  }

  it('under a 96 MB heap ends with exit 1 and a bounded account naming how many more files break the rule', async () => {
    const plugin = writeFloodPlugin();
    const json = join(tmp.dir, 'flood.json');
    const junit = join(tmp.dir, 'flood.xml');
    const res = await runCli(
      ['run', '--suite', 'plugin', '--plugin', plugin, '--case', 'plugin-file-names-are-relative', '--report', `json=${json}`, '--report', `junit=${junit}`],
      { cwd: tmp.dir, env: { NODE_OPTIONS: '--max-old-space-size=96' } },
    );
    expectNoCrash(res);
    expect(res.code).toBe(1);
    const c = caseOf(readReport(json), 'plugin-file-names-are-relative');
    expect(c.outcome).toBe('failed');
    // every fixture's answer breaks the rule ten thousand times; each answer is told in a few failures
    expect(c.failures.length).toBeGreaterThan(0);
    expect(c.failures.length).toBeLessThanOrEqual(5 * 11);
    expect(c.failures.every((f) => f.requirement === 'PLUGIN-FILE-NAME-RELATIVE')).toBe(true);
    expect(c.failures[0]?.message).toMatch(/file\[0\]: file name "\/abs\/gen-0\.txt" is absolute/);
    expect(c.failures.map((f) => f.message).join('\n')).toMatch(/and 9990 more files break this rule in the same response/);
    // the account of the response names a few files and says how many it leaves out
    expect(JSON.stringify(c.failures[0]?.actual)).toMatch(/"files_not_shown":9980/);
    expect(statSync(json).size).toBeLessThan(1024 * 1024);
    expect(statSync(junit).size).toBeLessThan(1024 * 1024);
  }, 120_000);
});

/** `depth` levels of arrays, or of objects when `key` is given. */
function nested(depth: number, key?: string): string {
  return key === undefined ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A greeting service whose every answer is `body` as application/json. */
async function answering(body: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('JSON nested deeper than specgate walks', () => {
  /** Runs hello-world (a body matcher and a schema) against `body`, with a secret to redact and every report format. */
  async function helloWorld(name: string, body: string): Promise<CliResult & { report: ReturnType<typeof reportOf>; files: Record<string, string> }> {
    const url = await answering(body);
    const profile = writeProfile(tmp.dir, name, { suites: { demo: demoSection(url, { vars: { base_url: url, api_key: '${env:HM_SECRET_KEY}' } }) } });
    const html = join(tmp.dir, `${name}.html`);
    const run = await runDemo(tmp.dir, ['--target', profile, '--case', 'hello-world', '--report', `html=${html}`], { HM_SECRET_KEY: 'secret-key-4242' });
    const files: Record<string, string> = {};
    for (const [kind, file] of [['json', run.json], ['junit', run.junit], ['tap', run.tap], ['html', html]] as const) {
      expect(existsSync(file), `${kind} report written`).toBe(true);
      files[kind] = readFileSync(file, 'utf8');
    }
    return { ...run, report: reportOf(run), files };
  }

  for (const [label, body, depth] of [
    ['5000 nested arrays', nested(5000), 5000],
    ['5000 nested objects', nested(5000, 'a'), 5000],
    ['a message nesting 5000 arrays', `{"message":${nested(5000)}}`, 5001],
    ['5000 nested arrays next to an int64 (the lossless parser)', `{"id":12345678901234567890,"message":${nested(5000)}}`, 5001],
  ] as const) {
    it(`${label}: the case errors SG_TARGET_PROTOCOL saying how deep, exit 3, every report written, no stack`, async () => {
      const run = await helloWorld(`deep-${label.replace(/\W+/g, '-')}`, body);
      expectNoCrash(run);
      const c = caseOf(run.report, 'hello-world');
      expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_PROTOCOL']);
      expect(c.reason).toMatch(new RegExp(`the answer nests JSON ${depth} levels deep, beyond specgate's limit of 256`));
      for (const text of Object.values(run.files)) expect(text).toContain(`nests JSON ${depth} levels deep`);
      expect(run.code).toBe(3);
    }, 60_000);
  }

  it('a body within the limit but deeper than a report shows: the failure is reported to a bounded depth (exit 1)', async () => {
    const run = await helloWorld('deep-200', `{"message":${nested(200)}}`);
    expectNoCrash(run);
    const c = caseOf(run.report, 'hello-world');
    expect(c.outcome).toBe('failed');
    expect(c.failures.map((f) => f.message).join('\n')).toMatch(/expected exactly "hello world", got \[\[\[/);
    // the failure's actual value stops at the report's depth; the exchange keeps the body as text
    const actual = c.failures.find((f) => f.message.includes('expected exactly'))?.actual;
    let depth = 0;
    for (let v: unknown = actual; Array.isArray(v); v = v[0]) depth++;
    expect(depth).toBeGreaterThan(32);
    expect(depth).toBeLessThan(64);
    for (const [kind, text] of Object.entries(run.files)) {
      expect(text, kind).toContain('… nested beyond 64 levels');
      expect(text, kind).not.toContain('secret-key-4242');
    }
    expect(run.code).toBe(1);
  }, 60_000);

  it('a results file nesting 5000 levels is refused by merge with exit 2 and a message that says why', async () => {
    const file = join(tmp.dir, 'deep-results.json');
    writeFileSync(file, `{"specgate":{"format":1},"requirements":[],"suites":[{"name":"demo","cases":[{"id":"x","failures":[{"actual":${nested(5000)}}]}]}]}`);
    const res = await runCli(['merge', file, '--report', `json=${join(tmp.dir, 'merged.json')}`], { cwd: tmp.dir });
    expectNoCrash(res);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/deep-results\.json: .*nests JSON 5007 levels deep, beyond specgate's limit of 256/);
  }, 60_000);
});
