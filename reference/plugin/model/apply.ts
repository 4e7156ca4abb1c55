import type { CodeGeneratorResponse } from '../types.js';
import { annotationsOf, DEFAULT_METADATA_SUFFIX, mergeCodeInfo, parseCodeInfo, printCodeInfo, type Annotation } from './code-info.js';
import { declaresProto3Optional } from './features.js';
import { checkFileName } from './file-name.js';
import { DEFAULT_MARKER_PREFIX, insertAtPoint, markerLine } from './insertion.js';
import { Rules, type RuleKey } from './rules.js';

/** Output tree of one output directory: file name (as the generator wrote it) -> content. */
export type Tree = Map<string, string>;

/** One generator of a compiler invocation and the response its plugin gave. */
export interface GeneratorRun {
  /** Generator name as on the command line (`x` for `--x_out`). */
  generator: string;
  /** Output location; runs sharing it share a tree, so one can insert into another's file. */
  outDir?: string;
  response: CodeGeneratorResponse;
}

/** Why the compiler must reject an invocation. */
export interface ModelError {
  /** The compiler-side requirement a compiler breaks by not rejecting this. */
  rule: string;
  key: RuleKey;
  generator: string;
  /** Index into the generator's `file` list, when one File is to blame. */
  fileIndex?: number;
  message: string;
}

export interface ApplyOptions {
  /** Marker prefix, `@@<compiler>_insertion_point`; `@@protoc_insertion_point` by default. */
  markerPrefix?: string;
  /** Files to generate that declare proto3 optional fields (see features.ts). */
  proto3OptionalFiles?: readonly string[];
  /**
   * How text is inserted at a point (default `insertAtPoint`, rules 4 and 5). Replaceable so
   * that a compiler with different insertion semantics can be modelled and compared.
   */
  insert?: typeof insertAtPoint;
  /**
   * Files already on disk before the invocation, by output location (as in GeneratorRun.outDir):
   * left there by an earlier run, they were not generated in this invocation (Rules for File,
   * rule 6), so an insertion into one is refused for that reason.
   */
  leftovers?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * How the code-generation metadata of a generated file is named: `<file><suffix>`, holding a
   * GeneratedCodeInfo (File.generated_code_info). `.pb.meta` by default, as protoc keeps it.
   */
  metadataSuffix?: string;
}

export type ApplyResult = { ok: true; trees: Map<string, Tree> } | { ok: false; error: ModelError };

const DEFAULT_DIR = '.';

class Rejection extends Error {
  constructor(readonly error: ModelError) {
    super(error.message);
  }
}

function reject(key: RuleKey, generator: string, message: string, fileIndex?: number): never {
  const rule = Rules[key] as { compiler?: string };
  throw new Rejection({ rule: rule.compiler ?? '', key, generator, message, ...(fileIndex === undefined ? {} : { fileIndex }) });
}

type Open = { kind: 'file'; name: string } | { kind: 'insert'; name: string; point: string; text: string; index: number; info: Annotation[] };

/**
 * The metadata of `name` after inserting `text` at `point` of `before` (File.generated_code_info:
 * "when an insertion point is used it is offset and merged into the code-generation metadata of
 * the generated files"). Unchanged when the insertion carries no annotations and the file has
 * no metadata, or when the metadata on record cannot be read (a compiler cannot merge into it).
 */
function mergedMetadata(tree: Tree, name: string, before: string, point: string, text: string, info: Annotation[], opts: ApplyOptions): void {
  const metaName = `${name}${opts.metadataSuffix ?? DEFAULT_METADATA_SUFFIX}`;
  const current = tree.get(metaName);
  if (current === undefined && info.length === 0) return;
  const existing = current === undefined ? [] : parseCodeInfo(current);
  const site = markerLine(before, point, opts.markerPrefix ?? DEFAULT_MARKER_PREFIX);
  if (!existing || 'message' in site) return;
  tree.set(metaName, printCodeInfo(mergeCodeInfo(existing, info, { ...site, text })));
}

/** Applies one response to `tree` (mutating it), following spec A, Rules for File, rules 1-5. */
function applyOne(run: GeneratorRun, tree: Tree, opts: ApplyOptions, dir: string): void {
  const gen = run.generator;
  const res = run.response;
  // Errors 1: a non-empty error means generation failed; an empty one is no error (proto2 presence aside).
  if (res.error !== undefined && res.error !== '') reject('errorSet', gen, res.error);
  const needsOptional = opts.proto3OptionalFiles ?? [];
  if (needsOptional.length > 0 && !declaresProto3Optional(res.supported_features)) {
    reject('proto3Optional', gen, `${needsOptional[0]}: is a proto3 file that contains optional fields, but generator ${gen} does not declare FEATURE_PROTO3_OPTIONAL`);
  }
  const prefix = opts.markerPrefix ?? DEFAULT_MARKER_PREFIX;
  let open: Open | undefined;
  const close = (): void => {
    if (open?.kind !== 'insert') return;
    const target = tree.get(open.name);
    if (target === undefined && opts.leftovers?.get(dir)?.has(open.name)) {
      reject('insertionStale', gen, `${open.name}: tried to insert into a file an earlier run left in the output directory; only files generated in this invocation can be inserted into`, open.index);
    }
    if (target === undefined) {
      reject('insertionTarget', gen, `${open.name}: tried to insert into a file that does not exist (it must be generated earlier in this invocation)`, open.index);
    }
    const result = (opts.insert ?? insertAtPoint)(target, open.point, open.text, prefix);
    if (!result.ok) reject('insertionMarker', gen, `${open.name}: ${result.message}`, open.index);
    tree.set(open.name, result.content);
    mergedMetadata(tree, open.name, target, open.point, open.text, open.info, opts);
  };
  (res.file ?? []).forEach((f, i) => {
    const name = f.name ?? '';
    const point = f.insertion_point ?? '';
    const content = f.content ?? '';
    if (point !== '') {
      close();
      if (name === '') reject('insertionName', gen, `file[${i}]: insertion point ${JSON.stringify(point)} without a file name`, i);
      const problem = checkFileName(name);
      if (problem) reject(problem.rule, gen, problem.message, i);
      open = { kind: 'insert', name, point, text: content, index: i, info: annotationsOf(f.generated_code_info) };
    } else if (name !== '') {
      close();
      const problem = checkFileName(name);
      if (problem) reject(problem.rule, gen, problem.message, i);
      if (tree.has(name)) reject('nameOnce', gen, `${name}: tried to write the same file twice`, i);
      tree.set(name, content);
      open = { kind: 'file', name };
    } else if (open === undefined) {
      reject('appendFirst', gen, `file[${i}]: the first file chunk of the response has no name, so there is nothing to append to`, i);
    } else if (open.kind === 'file') {
      tree.set(open.name, (tree.get(open.name) ?? '') + content);
    } else {
      // After an insertion, a nameless chunk continues the inserted text (as protoc does).
      open.text += content;
    }
  });
  close();
}

/**
 * The model of one compiler invocation: applies the responses of its generators in command-line
 * order (spec A, Rules for File, rule 6) and returns the output trees by output directory, or
 * the first reason the compiler must fail. On failure nothing is to be written.
 */
export function applyGenerators(runs: readonly GeneratorRun[], opts: ApplyOptions = {}): ApplyResult {
  const trees = new Map<string, Tree>();
  try {
    for (const run of runs) {
      const dir = run.outDir ?? DEFAULT_DIR;
      let tree = trees.get(dir);
      if (!tree) {
        tree = new Map();
        trees.set(dir, tree);
      }
      applyOne(run, tree, opts, dir);
    }
  } catch (e) {
    if (e instanceof Rejection) return { ok: false, error: e.error };
    throw e;
  }
  return { ok: true, trees };
}

/** `applyGenerators` for generators sharing one output directory; generators are named g1, g2, ... */
export function applyResponses(
  responses: readonly CodeGeneratorResponse[],
  opts: ApplyOptions = {},
): { ok: true; tree: Tree } | { ok: false; error: ModelError } {
  const result = applyGenerators(responses.map((response, i) => ({ generator: `g${i + 1}`, response })), opts);
  if (!result.ok) return result;
  return { ok: true, tree: result.trees.get(DEFAULT_DIR) ?? new Map() };
}
