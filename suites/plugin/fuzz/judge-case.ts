import { encodeRequest } from '../../../reference/plugin/codec.js';
import type { CodeGeneratorRequest } from '../../../reference/plugin/types.js';
import { reorderRequest } from '../../../reference/plugin/wire.js';
import { controlRequest, type FuzzCase } from './fuzz-request.js';
import { alwaysWritten, outputForImports } from './import-output.js';
import type { FuzzFinding } from './judge-run.js';
import { sameAnswer, type RunSummary } from './plugin-runs.js';

/** spec A, CodeGeneratorRequest: "the wire format does not guarantee field order". */
export const FIELD_ORDER = 'PLUGIN-WIRE-FIELD-ORDER';
/** spec A, What the service does: the same request gives the same response, byte for byte. */
export const DETERMINISTIC = 'PLUGIN-DETERMINISTIC';
/** spec A, CodeGeneratorRequest: code is generated only for the files in file_to_generate. */
export const FILE_TO_GENERATE = 'PLUGIN-FILE-TO-GENERATE';

/** A finding and the exact bytes of the run that shows it (a reordered request for a field-order finding). */
export interface CaseFinding {
  finding: FuzzFinding;
  bytes: Uint8Array;
}

/**
 * How the judge runs the plugin: once per distinct (bytes, attempt), attempt 2 being the same
 * bytes again. The fuzzer's PluginRuns (plugin-runs.ts) remembers runs across a lane; a check
 * could run the plugin through its context and summarise each run with `summarize`.
 */
export interface CaseRuns {
  run(bytes: Uint8Array, request: CodeGeneratorRequest, attempt?: number): Promise<RunSummary>;
}

export interface CaseJudging {
  runs: CaseRuns;
  /** Whether a finding of this requirement ends the judging of the case (it fails the property). */
  stopsAt(requirement: string): boolean;
  /**
   * Judge only what can find this requirement (while a finding of it is shrunk, a candidate
   * counts only if it still shows that finding, so the other stages need not run).
   */
  only?: string;
  /** Whether the fuzz requests carry go_package (the control request gets one too). */
  goPackage: boolean;
  /**
   * The request's parameter, if any, is the fuzzer's own (the target named none): a non-zero
   * exit on it is the plugin refusing a parameter it does not take, set aside rather than found
   * (spec A binds no plugin to take one; `error` is for problems of the schema files).
   */
  ownParameter?: boolean;
}

/** What judging one case found, and whether the plugin answered the request with `error`. */
export interface CaseVerdict {
  found: CaseFinding[];
  errored: boolean;
}

/**
 * Judges one generated case as `specgate run` judges a plugin, in stages that stop at the first
 * finding `stopsAt` names:
 * 1. the request in the usual order: one decodable answer, exit 0, fields under the schema's
 *    tags, the response rules (judge-run.ts);
 * 2. the request in the case's other wire order, and when the two answers differ in any byte,
 *    the usual order again: a repeat that differs is PLUGIN-DETERMINISTIC, otherwise a
 *    different answer (files, contents, error or not) is PLUGIN-WIRE-FIELD-ORDER, judged as
 *    `plugin.fieldOrder` judges it;
 * 3. with imports in proto_file: the same request asked for the imports alone, for everything,
 *    and a control request, judged by import-output.ts as `plugin.fileToGenerate` judges.
 */
export async function judgeCase(c: FuzzCase, j: CaseJudging): Promise<CaseVerdict> {
  const request: CodeGeneratorRequest = c.request;
  const bytes = encodeRequest(c.request);
  const found: CaseFinding[] = [];
  /** Records a finding; true when the judging stops there. */
  const add = (finding: FuzzFinding, at: Uint8Array): boolean => {
    found.push({ finding, bytes: at });
    return j.stopsAt(finding.requirement);
  };
  const needs = (...ids: string[]): boolean => j.only === undefined || ids.includes(j.only);

  const usual = await j.runs.run(bytes, request);
  if (usual.failure?.kind === 'exit' && j.ownParameter && request.parameter !== undefined) return { found, errored: true };
  if (usual.failure) {
    add(usual.failure, bytes);
    return { found, errored: false };
  }
  const verdict = { found, errored: usual.errored };
  for (const f of usual.findings) if (add(f, bytes)) return verdict;
  if (j.only === DETERMINISTIC) {
    // shrinking a determinism finding needs only the same bytes again
    const again = await j.runs.run(bytes, request, 2);
    if (again.bytes !== usual.bytes) add(differentAgain(usual, again), bytes);
    return verdict;
  }
  if (needs(FIELD_ORDER)) {
    for (const f of await orderAndRepeat(c, request, bytes, usual, j.runs)) if (add(f.finding, f.bytes)) return verdict;
  }
  if (needs(FILE_TO_GENERATE) && !usual.errored) {
    const f = await importOutput(c, request, usual, j);
    if (f) add(f, bytes);
  }
  return verdict;
}

/** The finding for one request's bytes answered differently the second time. */
function differentAgain(usual: RunSummary, again: RunSummary): FuzzFinding {
  const message = `the same request bytes, sent twice, gave different answers (first ${usual.outcome}; then ${again.outcome}${again.outcome === usual.outcome ? ', other bytes' : ''})`;
  return { requirement: DETERMINISTIC, kind: 'repeat', message };
}

/** Stage 2: the other wire order, and the usual order again when the answers differ. */
async function orderAndRepeat(c: FuzzCase, request: CodeGeneratorRequest, bytes: Uint8Array, usual: RunSummary, runs: CaseRuns): Promise<CaseFinding[]> {
  const reordered = reorderRequest(bytes, c.order);
  // a request whose fields cannot move (no field besides proto_file) is simply sent again
  const moved = !Buffer.from(reordered).equals(Buffer.from(bytes));
  const other = await runs.run(reordered, request, moved ? 1 : 2);
  const sent = `the request with its fields in order ${c.order}`;
  if (moved && other.failure) {
    return [{ bytes: reordered, finding: { ...other.failure, requirement: FIELD_ORDER, kind: 'order', message: `the plugin failed on ${sent} (${other.failure.message}), a request it answers in the usual order (${usual.outcome})` } }];
  }
  if (other.bytes === usual.bytes) return [];
  const again = moved ? await runs.run(bytes, request, 2) : other;
  if (again.bytes !== usual.bytes) return [{ bytes, finding: differentAgain(usual, again) }];
  if (!moved || sameAnswer(usual, other)) return [];
  const changed = [...new Set([...Object.keys(usual.files), ...Object.keys(other.files)])].filter((k) => usual.files[k] !== other.files[k]).sort();
  const what = usual.errored !== other.errored ? '' : `; files that differ: ${changed.slice(0, 6).join(', ')}${changed.length > 6 ? ', ...' : ''}`;
  return [{ bytes: reordered, finding: { requirement: FIELD_ORDER, kind: 'order', message: `the plugin answered ${sent} otherwise than the same request in the usual order (usual: ${usual.outcome}; ${c.order}: ${other.outcome}${what})` } }];
}

/** Stage 3: output for the files that are in proto_file only because they are imported. */
async function importOutput(c: FuzzCase, request: CodeGeneratorRequest, usual: RunSummary, j: CaseJudging): Promise<FuzzFinding | undefined> {
  const main = c.request.file_to_generate;
  const all = c.request.proto_file.map((f) => f.name);
  const imports = all.filter((n) => !main.includes(n));
  if (imports.length === 0) return undefined;
  const ask = async (req: CodeGeneratorRequest): Promise<RunSummary | undefined> => {
    const r = await j.runs.run(encodeRequest(req), req);
    // an answer that is no plain success cannot tell (as for `specgate run`)
    return r.failure || r.errored ? undefined : r;
  };
  const control = await ask(controlRequest(c.request, { goPackage: j.goPackage }));
  const forImports = control && (await ask({ ...request, file_to_generate: imports }));
  const forBoth = forImports && (await ask({ ...request, file_to_generate: all }));
  if (!control || !forImports || !forBoth) return undefined;
  const always = alwaysWritten([usual.created, forBoth.created, forImports.created, control.created]);
  const v = outputForImports({ forImports: forImports.created, forBoth: forBoth.created, forMainAlone: usual.created, forMainAloneTargets: usual.targets }, always);
  if (!v.told || v.extra.length === 0) return undefined;
  return {
    requirement: FILE_TO_GENERATE,
    kind: 'imports',
    message: `asked for ${main.join(', ')} only, the plugin also wrote ${v.extra.sort().join(', ')}: not the output ${main.length > 1 ? 'they get' : 'it gets'} when ${imports.join(', ')} ${imports.length > 1 ? 'are' : 'is'} asked for too (${v.forMain.sort().join(', ') || 'nothing'}), so output for imported files that are not in file_to_generate`,
  };
}
