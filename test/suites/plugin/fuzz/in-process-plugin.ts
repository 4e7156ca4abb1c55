import { decodeRequest, encodeResponse } from '../../../../reference/plugin/codec.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../../../../reference/plugin/types.js';
import type { ExecResult, ExecRunner } from '../../../../src/targets/types.js';

/**
 * Plugins as functions, run in this process: the fuzzer hands a runner the bytes it would pipe
 * into a process and judges what comes back, so the judging, shrinking, lanes and reporting are
 * exercised without starting hundreds of processes (the fuzz tests with real processes keep
 * the process path covered).
 */

/** What a plugin function gives back: a response to encode, or a raw result (a crash, bytes, an exit). */
export type PluginAnswer = CodeGeneratorResponse | { raw: Partial<ExecResult> };

export type PluginFunction = (request: CodeGeneratorRequest, bytes: Uint8Array) => PluginAnswer;

/** A well-behaved answer: one file per file to generate, FEATURE_PROTO3_OPTIONAL declared. */
export function goodAnswer(request: CodeGeneratorRequest, names: readonly string[] = request.file_to_generate ?? []): CodeGeneratorResponse {
  return { supported_features: 1, file: names.map((n) => ({ name: n.replace(/\.proto$/, '.txt'), content: `generated from ${n}\n` })) };
}

/** Whether some message of the request has a (real) oneof with two fields or more. */
export function hasCrowdedOneof(request: CodeGeneratorRequest): boolean {
  type Msg = { field?: { oneofIndex?: number; proto3Optional?: boolean }[]; nestedType?: Msg[] };
  const crowded = (m: Msg): boolean => {
    const counts = new Map<number, number>();
    for (const f of m.field ?? []) if (f.oneofIndex !== undefined && f.oneofIndex !== null && !f.proto3Optional) counts.set(f.oneofIndex, (counts.get(f.oneofIndex) ?? 0) + 1);
    return [...counts.values()].some((n) => n >= 2) || (m.nestedType ?? []).some(crowded);
  };
  return (request.proto_file ?? []).some((f) => ((f as { messageType?: Msg[] }).messageType ?? []).some(crowded));
}

/** A runner that answers with `plugin`; `jitterMs` delays each answer by up to that much, so lanes finish in varying order. */
export function inProcessRunner(plugin: PluginFunction, jitterMs = 0): ExecRunner & { calls: number } {
  const runner = {
    calls: 0,
    async run(req: { stdin?: Uint8Array }): Promise<ExecResult> {
      runner.calls++;
      const bytes = req.stdin ?? new Uint8Array(0);
      if (jitterMs > 0) await new Promise((r) => setTimeout(r, Math.random() * jitterMs));
      const answer = plugin(decodeRequest(bytes), bytes);
      const base: ExecResult = { exitCode: 0, signal: null, stdout: new Uint8Array(0), stderr: '', durationMs: 1 };
      return 'raw' in answer ? { ...base, ...answer.raw } : { ...base, stdout: encodeResponse(answer) };
    },
  };
  return runner;
}
