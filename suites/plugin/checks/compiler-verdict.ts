import { decodeResponse } from '../../../reference/plugin/codec.js';
import { applyGenerators, DEFAULT_METADATA_SUFFIX, proto3OptionalFilesToGenerate, sameCodeInfo, type ApplyOptions, type GeneratorRun, type ModelError } from '../../../reference/plugin/model/index.js';
import { onDisk, treeObject } from '../../../reference/plugin/tree-io.js';
import { withSandbox, type CompilerInvocation, type CompilerOutcome } from './compiler-harness.js';

/** Spec A, Errors 2: a plugin that exits non-zero reports an error, and the generation fails. */
export const PLUGIN_FAILURE_RULE = 'PLUGIN-COMPILER-PLUGIN-FAILURE';
/** Output that is no CodeGeneratorResponse fails the generation (stricter than spec A, Endpoints). */
export const BAD_RESPONSE_RULE = 'PLUGIN-COMPILER-BAD-RESPONSE-FAILS';
/** When generation fails, nothing is written to the output folders (protoc's all-or-nothing). */
export const FAILED_WRITES_NOTHING_RULE = 'PLUGIN-COMPILER-FAILED-WRITES-NOTHING';
/** Spec A, Rules for File 1: "The file cannot lie outside the output directory", judged on disk. */
export const OUTPUT_INSIDE_RULE = 'PLUGIN-COMPILER-OUTPUT-INSIDE';

/** A compiler's deviation from the model, named by the requirement it breaks. */
export interface CompilerFinding {
  requirement: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** What a correct compiler does with this invocation: write `trees`, or fail for `error`. */
export type Expectation =
  | { ok: true; trees: Map<string, Map<string, string>> }
  | { ok: false; error: Pick<ModelError, 'rule' | 'message' | 'generator'> };

/** The model's answer for an invocation (spec A, Rules for File 1-6, Errors 1-2, File.generated_code_info). */
export function expectedOutcome(inv: CompilerInvocation, sandbox: string, markerPrefix?: string, metadataSuffix?: string): Expectation {
  const runs: GeneratorRun[] = [];
  for (const g of inv.generators) {
    let response = g.response ?? {};
    if (g.responseBytes) {
      try {
        response = decodeResponse(g.responseBytes);
      } catch {
        return { ok: false, error: { rule: BAD_RESPONSE_RULE, generator: g.name, message: `plugin for ${g.name} wrote output that is not a CodeGeneratorResponse` } };
      }
    }
    if (g.exit) {
      // Earlier generators' problems come first, as the compiler meets them first.
      const before = applyGenerators(runs, modelOpts(inv, markerPrefix, metadataSuffix));
      if (!before.ok) return before;
      return { ok: false, error: { rule: PLUGIN_FAILURE_RULE, generator: g.name, message: `plugin for ${g.name} exited with status ${g.exit}` } };
    }
    runs.push({ generator: g.name, outDir: g.outDir ?? 'out', response: withSandbox(response, sandbox) });
  }
  const result = applyGenerators(runs, modelOpts(inv, markerPrefix, metadataSuffix));
  if (!result.ok) return result;
  const trees = new Map<string, Map<string, string>>();
  for (const g of inv.generators) {
    const dir = g.outDir ?? 'out';
    trees.set(dir, onDisk(result.trees.get(dir) ?? new Map()));
  }
  return { ok: true, trees };
}

/** The files to generate of an invocation that declare proto3 optional fields (the model's `proto3OptionalFiles`). */
export function invocationProto3OptionalFiles(inv: CompilerInvocation): string[] {
  return proto3OptionalFilesToGenerate({ file_to_generate: [...inv.files], proto_file: inv.descriptorSet.file ?? [] });
}

function modelOpts(inv: CompilerInvocation, markerPrefix?: string, metadataSuffix?: string): ApplyOptions {
  const opts: ApplyOptions = { proto3OptionalFiles: invocationProto3OptionalFiles(inv) };
  if (markerPrefix !== undefined) opts.markerPrefix = markerPrefix;
  if (metadataSuffix !== undefined) opts.metadataSuffix = metadataSuffix;
  if (inv.leftovers) opts.leftovers = new Map(Object.entries(inv.leftovers).map(([dir, files]) => [dir, new Set(Object.keys(files))]));
  return opts;
}

/**
 * Whether two trees (file name -> content) hold the same files with the same contents. A
 * metadata file (`<file><metadataSuffix>`) holds a GeneratedCodeInfo, in its wire or text
 * format as the compiler chose: it is the same when it holds the same annotations.
 */
export function sameTree(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>, metadataSuffix = DEFAULT_METADATA_SUFFIX): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined) return false;
    if (w !== v && !(k.endsWith(metadataSuffix) && sameCodeInfo(v, w))) return false;
  }
  return true;
}

/** What a run left in its output folders (files outside them are {@link strayFinding}'s). */
function written(out: CompilerOutcome): Record<string, Record<string, string>> {
  const w: Record<string, Record<string, string>> = {};
  for (const [d, t] of out.outputs) if (t.size) w[d] = treeObject(t);
  return w;
}

/** Files a run wrote outside its output folders: Rules for File 1, whatever else it did. */
function strayFinding(out: CompilerOutcome): CompilerFinding[] {
  if (!out.strays.size) return [];
  return [{ requirement: OUTPUT_INSIDE_RULE, message: `the compiler wrote ${out.strays.size} file(s) outside the output folder`, expected: { outside: {} }, actual: { exitCode: out.exitCode, outside: treeObject(out.strays) } }];
}

/**
 * Compares what a compiler did with what the model says it must do.
 * `acceptRequirement` names what a wrong tree or a refusal of valid output breaks. A file
 * outside the output folders is always PLUGIN-COMPILER-OUTPUT-INSIDE's finding, and comes first.
 */
export function judgeCompiler(expect: Expectation, out: CompilerOutcome, acceptRequirement: string, metadataSuffix = DEFAULT_METADATA_SUFFIX): CompilerFinding[] {
  const actual = { exitCode: out.exitCode, signal: out.signal, stderr: out.stderr, written: written(out) };
  const findings = strayFinding(out);
  if (expect.ok) {
    if (out.exitCode !== 0) {
      findings.push({ requirement: acceptRequirement, message: 'the compiler failed on plugin output that the spec allows', expected: { exitCode: 0, written: Object.fromEntries([...expect.trees].map(([d, t]) => [d, treeObject(t)])) }, actual });
      return findings;
    }
    for (const [dir, tree] of expect.trees) {
      const got = out.outputs.get(dir) ?? new Map<string, string>();
      if (!sameTree(tree, got, metadataSuffix)) {
        findings.push({ requirement: acceptRequirement, message: `the files written to ${dir}/ differ from what the rules give`, expected: treeObject(tree), actual: treeObject(got) });
      }
    }
    return findings;
  }
  const err = expect.error;
  if (out.exitCode === 0) {
    findings.push({ requirement: err.rule, message: `the compiler accepted what it must reject: ${err.message}`, expected: { exitCode: 'non-zero', written: {} }, actual });
    return findings;
  }
  const w = written(out);
  if (Object.keys(w).length) {
    findings.push({ requirement: FAILED_WRITES_NOTHING_RULE, message: `the compiler failed (rightly: ${err.message}) but still wrote files`, expected: { written: {} }, actual });
  }
  return findings;
}
