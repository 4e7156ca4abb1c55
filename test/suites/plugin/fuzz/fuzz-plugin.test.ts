import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DescriptorValue, FileDescriptorValue } from '../../../../generators/plugin/descriptor-types.js';
import { decodeRequest } from '../../../../reference/plugin/codec.js';
import type { FuzzOptions, FuzzResult } from '../../../../src/engine/suite-module.js';
import { fromRoot } from '../../../../src/paths.js';
import { createExecRunner } from '../../../../src/targets/exec-runner.js';
import { fuzzPlugin } from '../../../../suites/plugin/fuzz/fuzz-plugin.js';

const outDir = mkdtempSync(join(tmpdir(), 'specgate-fuzz-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function fixture(name: string): string {
  return fromRoot('test', 'fixtures', 'plugin-fuzz', `${name}.mjs`);
}

const COMMAND_LINE = 'specgate fuzz plugin --plugin fixture';

async function fuzz(name: string, opts: Partial<Omit<FuzzOptions, 'target'>> & { timeoutMs?: number } = {}): Promise<FuzzResult> {
  const lines: string[] = [];
  return fuzzPlugin({
    target: { vars: {}, exec: { command: process.execPath, args: [fixture(name)], timeoutMs: opts.timeoutMs ?? 10_000 }, runner: createExecRunner() },
    runs: opts.runs ?? 200,
    seed: opts.seed ?? 1234,
    ...(opts.path === undefined ? {} : { path: opts.path }),
    concurrency: opts.concurrency ?? 2,
    outDir,
    commandLine: COMMAND_LINE,
    signal: opts.signal ?? new AbortController().signal,
    log: (l) => lines.push(l),
  });
}

/** Reads `--seed`, `--path` and `--runs` back from a replay command. */
function replayArgs(replay: string | undefined): { seed: number; path: string; runs: number } {
  expect(replay?.startsWith(`${COMMAND_LINE} `)).toBe(true);
  const arg = (flag: string): string => replay?.match(new RegExp(`${flag} (\\S+)`))?.[1] ?? '';
  return { seed: Number(arg('--seed')), path: arg('--path'), runs: Number(arg('--runs')) };
}

function messagesOf(file: FileDescriptorValue | undefined): DescriptorValue[] {
  const out: DescriptorValue[] = [];
  const visit = (m: DescriptorValue): void => {
    out.push(m);
    (m.nestedType ?? []).forEach(visit);
  };
  (file?.messageType ?? []).forEach(visit);
  return out;
}

// Every plugin run is a Node process; on a busy machine a run takes up to a second or two, and
// shrinking runs the plugin again for every step.
describe('fuzzPlugin', { timeout: 600_000 }, () => {
  it('finds a plugin that crashes on a oneof with two fields, and shrinks the request to that', async () => {
    const result = await fuzz('crash-on-oneof');
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^PLUGIN-IO-ONE-RESPONSE: the plugin died of SIGABRT/);
    const request = decodeRequest(readFileSync(result.files.find((f) => f.endsWith('.bin')) ?? ''));
    expect(request).toEqual(result.property?.counterexample);
    // Minimal: one file, one message, one oneof holding two fields, nothing else.
    expect(request.proto_file).toHaveLength(1);
    const file = request.proto_file?.[0] as FileDescriptorValue | undefined;
    const messages = messagesOf(file);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.oneofDecl).toHaveLength(1);
    expect(messages[0]?.field).toHaveLength(2);
    expect(file?.enumType ?? []).toEqual([]);
    expect(file?.service ?? []).toEqual([]);
    expect(result.files.map((f) => f.replace(/.*\//, ''))).toEqual([`fuzz-plugin-${String(result.property?.seed)}.bin`, `fuzz-plugin-${String(result.property?.seed)}.json`, `fuzz-plugin-${String(result.property?.seed)}.yaml`]);
    expect(JSON.parse(readFileSync(result.files[1] ?? '', 'utf8'))).toEqual(request);
  });

  it('replays the finding exactly from the printed command', async () => {
    const first = await fuzz('crash-on-oneof');
    const { seed, path, runs } = replayArgs(first.replay);
    expect(runs).toBe(1);
    expect(path).not.toBe('');
    const again = await fuzz('crash-on-oneof', { seed, path, runs });
    expect(again.ok).toBe(false);
    expect(again.property?.counterexample).toEqual(first.property?.counterexample);
    expect(again.runs).toBe(1);
  });

  it('reports the same counterexample at any concurrency', async () => {
    const one = await fuzz('crash-on-oneof', { concurrency: 1, seed: 99 });
    const three = await fuzz('crash-on-oneof', { concurrency: 3, seed: 99 });
    expect(three.replay).toBe(one.replay);
    expect(three.property?.counterexample).toEqual(one.property?.counterexample);
  });

  it('finds a plugin that hangs on a map field (timeout), shrunk to one map field', async () => {
    // Every shrink step that still hangs costs the whole time limit, so it is kept short; two
    // processes at a time on a loaded machine still start in well under a second (about 0.1 s
    // each here), so a slow start cannot pass for a hang.
    const result = await fuzz('hang-on-map', { timeoutMs: 2500, concurrency: 2, runs: 100 });
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^PLUGIN-IO-ONE-RESPONSE: the plugin did not answer a valid request in time/);
    const files = (result.property?.counterexample as { proto_file: FileDescriptorValue[] }).proto_file;
    expect(files).toHaveLength(1);
    const messages = messagesOf(files[0]);
    expect(messages.filter((m) => m.options?.mapEntry)).toHaveLength(1);
    expect(messages.flatMap((m) => m.field ?? []).filter((f) => !f.name.match(/^(key|value)$/))).toHaveLength(1);
  });

  it('finds a plugin that exits non-zero on an extension', async () => {
    const result = await fuzz('exit-on-extension');
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^PLUGIN-ERROR-EXIT-ZERO: the plugin exited with status 1.*extensions are not supported/s);
  });

  it('finds a plugin that writes undecodable bytes for a client-streaming method', async () => {
    const result = await fuzz('garbage-on-streaming');
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^PLUGIN-IO-ONE-RESPONSE: the plugin's stdout is no CodeGeneratorResponse/);
  });

  it('finds a response that breaks a file-name rule, judged by the reference model', async () => {
    const result = await fuzz('dotdot-on-nested-enum');
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^PLUGIN-FILE-NAME-NO-DOT-COMPONENTS: /);
  });

  it('passes a well-behaved plugin, using every run', async () => {
    const result = await fuzz('well-behaved', { runs: 60, concurrency: 3 });
    expect(result).toMatchObject({ ok: true, runs: 60, files: [] });
    expect(result.replay).toBeUndefined();
  });

  it('treats a plugin that cannot be started as a harness fault, not a finding', async () => {
    const run = fuzzPlugin({
      target: { vars: {}, exec: { command: join(outDir, 'no-such-plugin') }, runner: createExecRunner() },
      runs: 10, seed: 1, concurrency: 1, outDir, commandLine: COMMAND_LINE, signal: new AbortController().signal, log: () => undefined,
    });
    await expect(run).rejects.toMatchObject({ code: 'SG_TARGET_UNREACHABLE' });
    expect(existsSync(join(outDir, 'fuzz-plugin-1.bin'))).toBe(false);
  });
});
