import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeRequest, encodeRequest } from '../../../../reference/plugin/codec.js';
import type { CodeGeneratorRequest } from '../../../../reference/plugin/types.js';
import { joinFields, lengthDelimited, reorderRequest, splitFields } from '../../../../reference/plugin/wire.js';
import type { FuzzOptions, FuzzResult } from '../../../../src/engine/suite-module.js';
import { fromRoot } from '../../../../src/paths.js';
import { createExecRunner } from '../../../../src/targets/exec-runner.js';
import type { ExecRunner } from '../../../../src/targets/types.js';
import { fuzzPlugin } from '../../../../suites/plugin/fuzz/fuzz-plugin.js';
import type { FuzzCase } from '../../../../suites/plugin/fuzz/fuzz-request.js';
import { goodAnswer, hasCrowdedOneof, inProcessRunner, type PluginFunction } from './in-process-plugin.js';

/**
 * What `specgate fuzz plugin` judges beyond one answer in the usual order, each proven on a
 * plugin with that one fault: the request in another wire order, the same bytes twice, output
 * for imported files, fields under the schema's tags, the target's insertion-marker prefix; a
 * finding below the gating level reported without failing or ending the search; each finding
 * reported once; replays that reproduce the bytes without replacing earlier files. The plugins
 * run in this process (in-process-plugin.ts), except where a test says otherwise.
 */
const outDir = mkdtempSync(join(tmpdir(), 'specgate-fuzz-judgements-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const COMMAND_LINE = 'specgate fuzz plugin --plugin fixture';
/** A gating without the requirements below MUST (the determinism one is a SHOULD or lower). */
const MUST_ONLY = new Set(['PLUGIN-IO-ONE-RESPONSE', 'PLUGIN-ERROR-EXIT-ZERO', 'PLUGIN-WIRE-FIELD-ORDER', 'PLUGIN-FILE-TO-GENERATE', 'PLUGIN-RESPONSE-SCHEMA-TAGS', 'PLUGIN-INSERTION-POINT-MARKED']);

interface Run {
  runner?: ExecRunner;
  plugin?: PluginFunction;
  runs?: number;
  seed?: number;
  path?: string;
  concurrency?: number;
  gating?: ReadonlySet<string>;
  vars?: Record<string, unknown>;
  log?: string[];
  jitterMs?: number;
}

function fuzz(r: Run): Promise<FuzzResult> {
  const opts: FuzzOptions = {
    target: { vars: r.vars ?? {}, exec: { command: 'in-process' }, runner: r.runner ?? inProcessRunner(r.plugin ?? ((req) => goodAnswer(req)), r.jitterMs ?? 0) },
    runs: r.runs ?? 25,
    seed: r.seed ?? 7,
    ...(r.path === undefined ? {} : { path: r.path }),
    concurrency: r.concurrency ?? 2,
    outDir,
    commandLine: COMMAND_LINE,
    signal: new AbortController().signal,
    log: (l) => r.log?.push(l),
    ...(r.gating ? { gating: r.gating } : {}),
  };
  return fuzzPlugin(opts satisfies FuzzOptions);
}

/** `--seed` and `--path` of the replay printed for a result's first finding, or for the finding of `requirement`. */
function replayOf(result: FuzzResult, requirement?: string): { seed: number; path: string } {
  const lines = result.message.split('\n');
  const line = requirement ? lines.slice(lines.findIndex((l) => l.startsWith(`${requirement}: `))).find((l) => l.startsWith('  replay: ')) : result.replay;
  return { seed: Number(line?.match(/--seed (\d+)/)?.[1]), path: line?.match(/--path (\S+)/)?.[1] ?? '' };
}

/** The lines of a message that start a finding (the others belong to it). */
function headers(message: string): string[] {
  return message.split('\n').filter((l) => /^PLUGIN-[A-Z0-9-]+: /.test(l));
}

/** Generates only for the files to generate that come on the wire before the first proto_file. */
const readsFieldsInOrder: PluginFunction = (req, bytes) => {
  const fields = splitFields(bytes);
  const firstFile = fields.findIndex((f) => f.field === 15);
  const early = decodeRequest(joinFields(fields.slice(0, firstFile < 0 ? fields.length : firstFile)));
  return goodAnswer(req, early.file_to_generate ?? []);
};

/** Stamps its answer with a number that changes every run. */
let stamp = 0;
const stampsAnswers: PluginFunction = (req) => {
  const res = goodAnswer(req);
  return { ...res, file: (res.file ?? []).map((f) => ({ ...f, content: `// build ${++stamp}\n${f.content ?? ''}` })) };
};

describe('fuzzing a plugin judges what `specgate run` judges', () => {
  it('finds a plugin that answers by wire field order; the finding names the order and the .bin holds the bytes sent in it', async () => {
    const result = await fuzz({ plugin: readsFieldsInOrder });
    expect(result.ok).toBe(false);
    const c = result.property?.counterexample as FuzzCase;
    expect(result.message).toMatch(new RegExp(`^PLUGIN-WIRE-FIELD-ORDER: the plugin answered the request with its fields in order ${c.order} otherwise`));
    const bin = readFileSync(result.files.find((f) => f.endsWith('.bin')) ?? '');
    expect(Buffer.from(reorderRequest(encodeRequest(c.request as CodeGeneratorRequest), c.order)).equals(bin)).toBe(true);
    expect(Buffer.from(encodeRequest(c.request as CodeGeneratorRequest)).equals(bin)).toBe(false);
    // no regression case: plugin.fuzzRequest sends the usual order only
    expect(result.files.some((f) => f.endsWith('.yaml'))).toBe(false);
    expect(result.message).toContain('no regression case: plugin.fuzzRequest does not judge PLUGIN-WIRE-FIELD-ORDER');
  });

  it('replays a finding to the same bytes and writes them under new names, never over the earlier files', async () => {
    const first = await fuzz({ plugin: readsFieldsInOrder, seed: 11 });
    const before = first.files.map((f) => readFileSync(f));
    const { seed, path } = replayOf(first);
    const again = await fuzz({ plugin: readsFieldsInOrder, seed, path, runs: 1 });
    expect(again.ok).toBe(false);
    expect(again.files.map((f) => f.replace(/.*\//, ''))).toEqual(first.files.map((f) => f.replace(/.*\//, '').replace(/\.(\w+)$/, '-2.$1')));
    expect(readFileSync(again.files[0] ?? '').equals(before[0] ?? Buffer.alloc(0))).toBe(true);
    first.files.forEach((f, i) => expect(readFileSync(f).equals(before[i] ?? Buffer.alloc(0))).toBe(true));
  });

  it('finds output for imported files, by the files written, and not for a plugin that writes one file whatever it is asked', async () => {
    const result = await fuzz({ plugin: (req) => goodAnswer(req, (req.proto_file ?? []).map((f) => f.name ?? '')) });
    expect(result.message).toMatch(/^PLUGIN-FILE-TO-GENERATE: asked for \S+ only, the plugin also wrote .*output for imported files/);
    const clean = await fuzz({ plugin: (req) => ({ ...goodAnswer(req), file: [...(goodAnswer(req).file ?? []), { name: 'runtime/support.txt', content: 'always\n' }] }) });
    expect(clean).toMatchObject({ ok: true, message: 'no finding in 25 valid requests' });
  });

  it('finds fields written under tags the schema does not define', async () => {
    const underTag3: PluginFunction = (req) => {
      // each File's content under tag 3 instead of 15
      const files = (req.file_to_generate ?? []).map((n) => lengthDelimited(15, Buffer.concat([lengthDelimited(1, Buffer.from(n)), lengthDelimited(3, Buffer.from('x'))])));
      return { raw: { stdout: Buffer.concat([Buffer.from([0x10, 0x01]), ...files]) } };
    };
    const result = await fuzz({ plugin: underTag3 });
    expect(result.message).toMatch(/^PLUGIN-RESPONSE-SCHEMA-TAGS: the response carries fields under tags the schema does not define.*file\[0\] field 3/);
    // one run shows it, so plugin.fuzzRequest judges it and the finding gets a regression case
    expect(result.message).not.toContain('no regression case');
  });

  it('judges insertion markers with the target\'s prefix (var insertion_marker_prefix)', async () => {
    const ownMarker: PluginFunction = (req) => ({
      supported_features: 1,
      file: (goodAnswer(req).file ?? []).flatMap((f) => [
        { name: f.name, content: '// @@mycc_insertion_point(top)\n' },
        { name: f.name, insertion_point: 'top', content: 'x\n' },
      ]),
    });
    const marked = await fuzz({ plugin: ownMarker, vars: { insertion_marker_prefix: '@@mycc_insertion_point' } });
    expect(marked.message).toBe('no finding in 25 valid requests');
    const unmarked = await fuzz({ plugin: ownMarker });
    expect(unmarked.message).toMatch(/^PLUGIN-INSERTION-POINT-MARKED: /);
  });
});

describe('findings below the gating level', () => {
  it('a finding below the gating level is reported once and does not fail the search; it fails it when its level gates', async () => {
    const log: string[] = [];
    const below = await fuzz({ plugin: stampsAnswers, gating: MUST_ONLY, log });
    expect(below.ok).toBe(true);
    expect(below.message).toMatch(/^no finding at the gating level in 25 valid requests; 1 below it:\nPLUGIN-DETERMINISTIC: the same request bytes, sent twice, gave different answers/);
    expect(below.message).toContain('below the gating level: reported, but the search does not fail on it');
    expect(headers(below.message)).toEqual([expect.stringMatching(/^PLUGIN-DETERMINISTIC: /)]);
    expect(log.join('\n')).not.toContain('PLUGIN-DETERMINISTIC');
    const strict = await fuzz({ plugin: stampsAnswers, gating: new Set([...MUST_ONLY, 'PLUGIN-DETERMINISTIC']) });
    expect(strict.ok).toBe(false);
    expect(strict.message).toMatch(/^PLUGIN-DETERMINISTIC: /);
  });

  it('a finding below the gating level does not hide a gating one: the search goes on past it, and each is reported once', async () => {
    const log: string[] = [];
    const both: PluginFunction = (req, bytes) => (hasCrowdedOneof(req) ? { raw: { exitCode: null, signal: 'SIGABRT' } } : stampsAnswers(req, bytes));
    // seed 1234: the first request with a crowded oneof is the fourth, after three that only show the stamps
    const result = await fuzz({ plugin: both, gating: MUST_ONLY, log, seed: 1234 });
    expect(result.ok).toBe(false);
    expect(headers(result.message).map((h) => h.split(':')[0])).toEqual(['PLUGIN-IO-ONE-RESPONSE', 'PLUGIN-DETERMINISTIC']);
    for (const f of result.files) expect(result.message.split(f).length - 1).toBe(1);
    expect(log.join('\n')).not.toMatch(/PLUGIN-(IO|DETERMINISTIC)/);
  });

  it('several lanes report one finding per requirement, the same at any concurrency, and it replays', async () => {
    const one = await fuzz({ plugin: stampsAnswers, gating: MUST_ONLY, runs: 75, concurrency: 1 });
    const three = await fuzz({ plugin: stampsAnswers, gating: MUST_ONLY, runs: 75, concurrency: 3, jitterMs: 3 });
    expect(headers(three.message)).toHaveLength(1);
    expect(three.property?.counterexample).toEqual(one.property?.counterexample);
    expect(three.replay).toBe(one.replay);
    const { seed, path } = replayOf(one, 'PLUGIN-DETERMINISTIC');
    const again = await fuzz({ plugin: stampsAnswers, gating: MUST_ONLY, seed, path, runs: 1 });
    expect(headers(again.message)).toEqual([expect.stringMatching(/^PLUGIN-DETERMINISTIC: /)]);
    expect(readFileSync(again.files[0] ?? '').equals(readFileSync(one.files[0] ?? ''))).toBe(true);
  });
});

describe('planted-fault plugins run as processes', () => {
  const plugin = (name: string, ...args: string[]): ExecRunner => {
    const runner = createExecRunner();
    const file = fromRoot('test', 'fixtures', 'plugin', 'fuzz', name);
    return { run: (req) => runner.run({ ...req, command: process.execPath, args: [file, ...args], timeoutMs: 10_000 }) };
  };

  // Replaying the first request of seed 1234 (path 0; it has imports) judges it completely
  // without shrinking: a few processes per plugin, while the tests above cover the shrinking.
  it('find field-order dependence, output for imports and a nondeterministic answer', { timeout: 60_000 }, async () => {
    const first = { runs: 1, seed: 1234, path: '0', concurrency: 1 };
    const [order, imports, stamps] = await Promise.all([
      fuzz({ runner: plugin('reads-fields-in-order.mjs'), ...first }),
      fuzz({ runner: plugin('generates-imports.mjs'), ...first }),
      fuzz({ runner: plugin('stamps-answers.mjs'), ...first, gating: MUST_ONLY }),
    ]);
    expect(headers(order.message)).toEqual([expect.stringMatching(/^PLUGIN-WIRE-FIELD-ORDER: /)]);
    expect(headers(imports.message)).toEqual([expect.stringMatching(/^PLUGIN-FILE-TO-GENERATE: /)]);
    expect(stamps).toMatchObject({ ok: true });
    expect(headers(stamps.message)).toEqual([expect.stringMatching(/^PLUGIN-DETERMINISTIC: /)]);
  });
});
