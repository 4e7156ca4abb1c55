/**
 * Memory and stack bounded by the input, not by its shape: a plugin answering ten thousand
 * rule-breaking files, under a small heap, ends with a bounded failure; a target answering JSON
 * nested thousands of levels deep is a target-protocol fault with a message that says so, never
 * a stack overflow; reports of deeply nested values are rendered to a bounded depth; a large
 * plugin answer, body or cases file costs a few times its size.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { parseYaml } from '../../src/engine/loader/yaml-source.js';
import { fromRoot } from '../../src/paths.js';
import { harEntry, harFile } from '../targets/har/har-builder.js';
import { absoluteNamedFiles, writeHandEncodedPlugin } from '../fixtures/plugin/hand-encoded-plugin.js';
import { DEMO_MODULE, assertBuilt, caseOf, demoSection, readReport, reportOf, runCli, runDemo, tempDir, writeProfile, type CliResult } from './cli.js';

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

/** A hand-encoded plugin in the test's folder (test/fixtures/plugin/hand-encoded-plugin.ts). */
const writePlugin = (name: string, files: string): string => writeHandEncodedPlugin(tmp.dir, name, files);

/** `specgate run --suite plugin --plugin <plugin> --case <id>` under a heap of `heapMb`. */
function runPlugin(plugin: string, caseId: string, heapMb: number, reports: string[]): Promise<CliResult> {
  return runCli(['run', '--suite', 'plugin', '--plugin', plugin, '--case', caseId, ...reports.flatMap((r) => ['--report', r])], {
    cwd: tmp.dir,
    env: { NODE_OPTIONS: `--max-old-space-size=${heapMb}` },
  });
}

describe('a plugin answering ten thousand rule-breaking files', () => {
  const FILES = 10_000;
  const writeFloodPlugin = (): string => writePlugin('flood-plugin', absoluteNamedFiles(FILES));

  it('under a 96 MB heap ends with exit 1 and a bounded account naming how many more files break the rule', async () => {
    const plugin = writeFloodPlugin();
    const json = join(tmp.dir, 'flood.json');
    const junit = join(tmp.dir, 'flood.xml');
    const res = await runPlugin(plugin, 'plugin-file-names-are-relative', 96, [`json=${json}`, `junit=${junit}`]);
    expectNoCrash(res);
    expect(res.code).toBe(1);
    const c = caseOf(readReport(json), 'plugin-file-names-are-relative');
    expect(c.outcome).toBe('failed');
    // every fixture's answer breaks the rule ten thousand times; each answer is told in a few
    // assertions, listed under the one failure of the rule
    expect(c.failures.map((f) => f.requirement)).toEqual(['PLUGIN-FILE-NAME-RELATIVE']);
    const assertions = c.failures[0]?.assertions ?? [];
    expect(assertions.length).toBeGreaterThan(0);
    expect(assertions.length).toBeLessThanOrEqual(5 * 11);
    expect(assertions[0]?.message).toMatch(/file\[0\]: file name "\/abs\/gen-0\.txt" is absolute/);
    expect(assertions.map((f) => f.message).join('\n')).toMatch(/and 9990 more files break this rule in the same response/);
    // the account of the response names a few files and says how many it leaves out
    expect(JSON.stringify(assertions[0]?.actual)).toMatch(/"files_not_shown":9980/);
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
    const assertions = c.failures.flatMap((f) => f.assertions ?? [f]);
    expect(assertions.map((f) => f.message).join('\n')).toMatch(/expected exactly "hello world", got \[\[\[/);
    // the failure's actual value stops at the report's depth; the exchange keeps the body as text
    const actual = assertions.find((f) => f.message.includes('expected exactly'))?.actual;
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

  it('a recorded answer nesting 5000 levels (--target har:) is left out and named, the rest judged and the report written, no stack', async () => {
    const har = join(tmp.dir, 'deep.har');
    const entry = (url: string, body: string): Record<string, unknown> => harEntry({ url, status: 200, responseHeaders: { 'content-type': 'application/json' }, body });
    writeFileSync(har, JSON.stringify(harFile([entry('http://127.0.0.1:9/notes', '[]'), entry('http://127.0.0.1:9/notes', nested(5000, 'a'))])));
    const json = join(tmp.dir, 'har.json');
    const res = await runCli(['run', '--suite-module', fromRoot('dist/examples/notes/suite.js'), '--suite', 'notes', '--target', `har:${har}`, '--report', `json=${json}`], { cwd: tmp.dir });
    expectNoCrash(res);
    // a warning of the run, on the entry: the other entry is judged (its bare list breaks the notes list shape: exit 1)
    expect(res.stdout).toMatch(/entry 1: the answer of entry 1 nests JSON 5000 levels deep, beyond specgate's limit of 256; it is left out/);
    expect(res.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { suites: { properties: Record<string, string> }[] };
    expect(report.suites[0]?.properties['entriesLeftOut']).toMatch(/entry 1\b/);
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

/**
 * Large inputs cost a few times their size, not dozens: each run below is given a heap a little
 * over what it needs, and well under what it needed before (measured: a 30 MB plugin answer on
 * the five fixtures needed more than 160 MB, now under 96; a 40 MB body checked against a schema
 * 220-250 MB, now 150-170; a 3 MB cases file more than 160 MB, now about 56).
 */
describe('large answers and suite files under a small heap', () => {
  it('a plugin answering one 30 MB file on every fixture runs in a 112 MB heap', async () => {
    const plugin = writePlugin('big-file-plugin', `[['big.txt', Buffer.alloc(30_000_000, 0x61)]]`);
    const json = join(tmp.dir, 'big-plugin.json');
    const res = await runPlugin(plugin, 'plugin-file-names-are-relative', 112, [`json=${json}`]);
    expectNoCrash(res);
    expect(res.code).toBe(0);
    expect(caseOf(readReport(json), 'plugin-file-names-are-relative').outcome).toBe('passed');
  }, 120_000);

  it('a 40 MB JSON body under a raised cap, matched and checked against a schema, runs in a 200 MB heap', async () => {
    const items = Array.from({ length: 560_000 }, (_x, i) => `{"id":${i},"name":"item-${i}","tags":["a","b"],"ok":true}`);
    const url = await answering(`{"message":"hello world","items":[${items.join(',')}]}`);
    const profile = writeProfile(tmp.dir, 'big-body', { suites: { demo: demoSection(url, { http: { maxBodyBytes: 64 * 1024 * 1024, timeoutMs: 60_000 } }) } });
    const json = join(tmp.dir, 'big-body.json');
    const res = await runCli(['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--target', profile, '--case', 'hello-world', '--report', `json=${json}`], {
      cwd: tmp.dir,
      env: { NODE_OPTIONS: '--max-old-space-size=200' },
    });
    expectNoCrash(res);
    expect(res.code).toBe(0);
    expect(caseOf(readReport(json), 'hello-world').outcome).toBe('passed');
  }, 120_000);

  it('a 3 MB cases file loads in a 96 MB heap, and its problems are placed at their line and column', async () => {
    const dir = join(tmp.dir, 'big-suite');
    cpSync(fromRoot('test/fixtures/demo/suite'), join(dir, 'suite'), { recursive: true });
    writeFileSync(join(dir, 'suite.mjs'), `import { suite as demo } from ${JSON.stringify(DEMO_MODULE)};\nexport const suite = { ...demo, dir: ${JSON.stringify(join(dir, 'suite'))} };\n`);
    const CASES = 8000;
    const wrong = new Map([[3, 'DEMO-NOPE-EARLY'], [CASES - 2, 'DEMO-NOPE-LATE']]);
    let text = '';
    for (let i = 0; i < CASES; i++) {
      text += `- id: generated-hello-${i}
  description: A greeting names the one greeted, generated case number ${i} of many
  requirements: [${wrong.get(i) ?? 'DEMO-HELLO'}]
  steps:
    - request: { method: GET, url: "\${base_url}/hello", query: { name: world-${i} }, accept: json }
      expect:
        status: 200
        schema: demo/greeting
        body: { message: { $equals: hello world-${i} } }
`;
    }
    const file = join(dir, 'suite', 'cases', 'generated.yaml');
    writeFileSync(file, text);
    expect(text.length).toBeGreaterThan(2_900_000);
    /** `line:column` of a text in the file, 1-based. */
    const at = (needle: string): string => {
      const offset = text.indexOf(needle);
      const before = text.slice(0, offset);
      return `${before.split('\n').length}:${offset - before.lastIndexOf('\n')}`;
    };
    const res = await runCli(['run', '--suite-module', join(dir, 'suite.mjs'), '--suite', 'demo', '--case', 'hello-world'], {
      cwd: dir,
      env: { NODE_OPTIONS: '--max-old-space-size=96', SPECGATE_NO_CACHE: '1' },
    });
    expectNoCrash(res);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`generated.yaml:${at('DEMO-NOPE-EARLY')}: unknown requirement "DEMO-NOPE-EARLY"`);
    expect(res.stderr).toContain(`generated.yaml:${at('DEMO-NOPE-LATE')}: unknown requirement "DEMO-NOPE-LATE"`);
  }, 180_000);
});

describe('a large cases file read in slices', () => {
  /** The data and positions a whole-file parse gives, to compare the sliced reading with. */
  function whole(text: string): { data: unknown; at(path: (string | number)[]): string } {
    const lc = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, intAsBigInt: true });
    const data: unknown = doc.toJS({ maxAliasCount: 1000, reviver: (_k, v: unknown) => (typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v) });
    return {
      data,
      // the nearest node that exists on the path, as the loader names positions
      at: (path) => {
        for (let n = path.length; n > 0; n--) {
          const node: unknown = doc.getIn(path.slice(0, n), true);
          if (isNode(node) && node.range) {
            const pos = lc.linePos(node.range[0]);
            return `${pos.line}:${pos.col}`;
          }
        }
        return 'root';
      },
    };
  }

  it('gives the data and positions of a whole-file parse, anchors, block texts, CRLF and null items included', () => {
    let text = '# generated\n\n';
    const words = 'a long description that makes each item larger without adding nodes to parse '.repeat(4);
    for (let i = 0; i < 3000; i++) {
      text += `- id: case-${i}  # note\n  description: ${words}\n  big: 9007199254740993\n  text: |\n    one\n\n    - not an item\n  list:\n  - { x: ${i}, y: [1, 2] }\n  pair: { base: &b${i} { k: ${i} }, again: *b${i} }\n`;
      if (i % 7 === 0) text += '-\n';
    }
    for (const form of [text, text.replace(/\n/g, '\r\n')]) {
      expect(form.length).toBeGreaterThan(1024 * 1024);
      const sliced = parseYaml('cases.yaml', form);
      const expected = whole(form);
      expect(sliced.data).toEqual(expected.data);
      const items = (expected.data as unknown[]).length;
      for (const path of [[0], [1], [items - 1], [1500, 'list', 0, 'y', 1], [2900, 'pair', 'base', 'k'], [2900, 'pair', 'nope', 'k'], [items - 3, 'text']]) {
        const loc = sliced.locate(path);
        expect(`${loc.line}:${loc.column}`, JSON.stringify(path)).toBe(expected.at(path));
      }
    }
  });

  it('falls back to the whole file when an alias names an anchor in another slice', () => {
    const text = `- base: &shared { k: 1 }\n${'- filler: '.concat('z'.repeat(200), '\n').repeat(8000)}- late: *shared\n`;
    const data = parseYaml('cases.yaml', text).data as unknown[];
    expect(data).toHaveLength(8002);
    expect(data[data.length - 1]).toEqual({ late: { k: 1 } });
  });
});
