import { applyGenerators, DEFAULT_MARKER_PREFIX, DEFAULT_METADATA_SUFFIX, insertAtPoint, type GeneratorRun, type InsertResult } from '../../../reference/plugin/model/index.js';
import { onDisk } from '../../../reference/plugin/tree-io.js';
import type { CodeGeneratorResponse } from '../../../reference/plugin/types.js';
import { withSandbox, type CompilerInvocation, type CompilerOutcome } from './compiler-harness.js';
import { invocationProto3OptionalFiles, sameTree } from './compiler-verdict.js';

/**
 * Names the rule a compiler most likely broke when it wrote a different tree than the model:
 * the model is re-run with one rule bent at a time, and the variant that reproduces what the
 * compiler wrote names the rule. Used for generated invocations, where no single case names it.
 */

/** Insertion with one aspect of rules 4 and 5 bent: no indentation, or below the marker line. */
export function bentInsert(opts: { indent: boolean; below: boolean }): typeof insertAtPoint {
  return (content, point, text, prefix = DEFAULT_MARKER_PREFIX): InsertResult => {
    const at = content.indexOf(`${prefix}(${point})`);
    if (at < 0) return { ok: false, message: `insertion point ${point} not found` };
    if (text === '') return { ok: true, content };
    const lineStart = at === 0 ? 0 : content.lastIndexOf('\n', at - 1) + 1;
    const indent = opts.indent ? (/^[ \t]*/.exec(content.slice(lineStart, at))?.[0] ?? '') : '';
    const body = text.endsWith('\n') ? text : `${text}\n`;
    const lines = body.slice(0, -1).split('\n').map((l) => `${indent}${l}\n`).join('');
    if (!opts.below) return { ok: true, content: content.slice(0, lineStart) + lines + content.slice(lineStart) };
    const nl = content.indexOf('\n', at);
    if (nl < 0) return { ok: true, content: `${content}\n${lines}` };
    return { ok: true, content: content.slice(0, nl + 1) + lines + content.slice(nl + 1) };
  };
}

export function appendReplaces(res: CodeGeneratorResponse): CodeGeneratorResponse {
  const files = [...(res.file ?? [])];
  for (let i = 1; i < files.length; i++) {
    const f = files[i];
    const prev = files[i - 1];
    if (f && prev && !f.name && !f.insertion_point) files[i - 1] = { ...prev, content: '' };
  }
  return { ...res, file: files };
}

/** Consecutive insertions at one point of one file, in reverse order (a compiler that stacks them). */
export function reverseInsertions(res: CodeGeneratorResponse): CodeGeneratorResponse {
  const files = [...(res.file ?? [])];
  const out: typeof files = [];
  let i = 0;
  while (i < files.length) {
    const f = files[i];
    if (!f?.insertion_point) {
      if (f) out.push(f);
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < files.length && files[j + 1]?.insertion_point === f.insertion_point && files[j + 1]?.name === f.name) j++;
    out.push(...files.slice(i, j + 1).reverse());
    i = j + 1;
  }
  return { ...res, file: out };
}

/** One rule bent in the model: how text is inserted, how each response is read, or generator order. */
interface Bend {
  insert?: typeof insertAtPoint;
  mapResponse?: (r: CodeGeneratorResponse) => CodeGeneratorResponse;
  reverse?: boolean;
}

const VARIANTS: (Bend & { requirement: string })[] = [
  { requirement: 'PLUGIN-COMPILER-INSERTION-INDENT', insert: bentInsert({ indent: false, below: false }) },
  { requirement: 'PLUGIN-COMPILER-INSERTION-PLACEMENT', insert: bentInsert({ indent: true, below: true }) },
  { requirement: 'PLUGIN-COMPILER-APPEND', mapResponse: appendReplaces },
  { requirement: 'PLUGIN-COMPILER-INSERTION-ORDER', mapResponse: reverseInsertions },
  { requirement: 'PLUGIN-COMPILER-GENERATOR-ORDER', reverse: true },
];

/** The generator runs the model gets for an invocation, with the bend's response mapping and order. */
function bentRuns(inv: CompilerInvocation, sandbox: string, bend: Bend): GeneratorRun[] {
  const runs = inv.generators.map((g) => ({
    generator: g.name,
    outDir: g.outDir ?? 'out',
    response: withSandbox(bend.mapResponse ? bend.mapResponse(g.response ?? {}) : (g.response ?? {}), sandbox),
  }));
  return bend.reverse ? runs.reverse() : runs;
}

/** Whether the model with `bend` accepts the invocation and writes exactly what the compiler wrote. */
function reproduces(inv: CompilerInvocation, out: CompilerOutcome, bend: Bend, prefix: string, proto3OptionalFiles: string[], suffix: string): boolean {
  const r = applyGenerators(bentRuns(inv, out.sandbox, bend), { markerPrefix: prefix, metadataSuffix: suffix, proto3OptionalFiles, ...(bend.insert ? { insert: bend.insert } : {}) });
  return r.ok && [...r.trees].every(([dir, tree]) => sameTree(onDisk(tree), out.outputs.get(dir) ?? new Map(), suffix));
}

/** The requirement whose bent model reproduces the compiler's tree, or `fallback`. */
export function diagnoseTree(inv: CompilerInvocation, out: CompilerOutcome, fallback: string, prefix = DEFAULT_MARKER_PREFIX, suffix = DEFAULT_METADATA_SUFFIX): string {
  const proto3OptionalFiles = invocationProto3OptionalFiles(inv);
  return VARIANTS.find((v) => reproduces(inv, out, v, prefix, proto3OptionalFiles, suffix))?.requirement ?? fallback;
}

/**
 * For a compiler that refused valid output: when a bent model refuses too, its rule is the
 * likely cause. Running the generators in reverse order (rule 6) can make an insertion miss the
 * file another generator makes; an append that replaces the previous content instead of adding
 * to it (rule 2) can lose the marker a later insertion needs.
 */
export function diagnoseRefusal(inv: CompilerInvocation, sandbox: string, fallback: string, prefix = DEFAULT_MARKER_PREFIX): string {
  const proto3OptionalFiles = invocationProto3OptionalFiles(inv);
  const refuses = (bend: Bend): boolean => !applyGenerators(bentRuns(inv, sandbox, bend), { markerPrefix: prefix, proto3OptionalFiles }).ok;
  if (inv.generators.length >= 2 && refuses({ reverse: true })) return 'PLUGIN-COMPILER-GENERATOR-ORDER';
  if (refuses({ mapResponse: appendReplaces })) return 'PLUGIN-COMPILER-APPEND';
  return fallback;
}

/**
 * For a compiler that accepted what the model refuses: when the generators in reverse order
 * give exactly what the compiler wrote, it did not keep command-line order (rule 6).
 */
export function diagnoseAcceptance(inv: CompilerInvocation, out: CompilerOutcome, prefix = DEFAULT_MARKER_PREFIX, suffix = DEFAULT_METADATA_SUFFIX): string | undefined {
  if (inv.generators.length < 2) return undefined;
  return reproduces(inv, out, { reverse: true }, prefix, invocationProto3OptionalFiles(inv), suffix) ? 'PLUGIN-COMPILER-GENERATOR-ORDER' : undefined;
}
