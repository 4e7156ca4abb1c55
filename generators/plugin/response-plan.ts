import fc from 'fast-check';
import type { CodeGeneratorRequestValue, CodeGeneratorResponseValue, DescriptorValue, ResponseFileValue } from './descriptor-types.js';
import { outputPathsClash, uniqueName } from './naming.js';

/**
 * The structure of a valid CodeGeneratorResponse, independent of any request, so that a request
 * and a response can be generated (and shrunk) side by side and combined by a plain map.
 */

export interface MarkerPlan {
  name: string;
  /** Leading whitespace of the marker line: copied onto every inserted line (spec A, Rules for File, rule 5). */
  indent: string;
  /** Text around the marker on its line, e.g. a comment (rule 4). */
  before: string;
  after: string;
  /** Line of the content the marker goes before. */
  at: number;
}

export interface OutputPlan {
  source: number;
  dir: number | null;
  ext: number;
  lines: string[];
  markers: MarkerPlan[];
  /** Nameless chunks appended to this file (rule 2). */
  appends: string[];
  /** Put the last marker into the first appended chunk (insertion points count in the whole file). */
  markerInAppend: boolean;
}

export interface InsertionPlan {
  target: number;
  marker: number;
  text: string;
  /** A nameless chunk right after the insertion, which continues the inserted text. */
  continuation: string | null;
}

export interface ResponsePlan {
  outputs: OutputPlan[];
  insertions: InsertionPlan[];
  /** 0: leave supported_features out, 1: FEATURE_NONE, 2: FEATURE_PROTO3_OPTIONAL. */
  features: number;
}

const DIRS = ['gen', 'a/b', '.hidden', '..x', 'n\u00e4me', 'x-y_z'];
const EXTS = ['.pb.go', '_pb.ts', '.pb.h', '.txt', '', '.d.ts'];
const LINES = ['// generated', 'int x = 1;', '', 'package foo;', 'trailing space ', 'tab\tinside', 'unicode \u00e9 \u2713', '}'];

const text: fc.Arbitrary<string> = fc.array(fc.constantFrom(...LINES), { maxLength: 3 }).map((ls) => ls.map((l) => `${l}\n`).join(''));

const marker: fc.Arbitrary<MarkerPlan> = fc.record({
  name: fc.constantFrom('imports', 'class_scope:foo.Bar', 'namespace_scope', 'includes', 'x', 'module.end'),
  indent: fc.constantFrom('', '  ', '\t', '    ', ' \t'),
  before: fc.constantFrom('', '// ', '# ', '/* '),
  after: fc.constantFrom('', ' */', ' -- end'),
  at: fc.nat({ max: 3 }),
});

/** Plans of valid responses: a few output files with markers and appends, then insertions. */
export const responsePlan: fc.Arbitrary<ResponsePlan> = fc.record({
  outputs: fc.array(
    fc.record({
      source: fc.nat({ max: 7 }),
      dir: fc.option(fc.nat({ max: DIRS.length - 1 }), { freq: 3 }),
      ext: fc.nat({ max: EXTS.length - 1 }),
      lines: fc.array(fc.constantFrom(...LINES), { maxLength: 4 }),
      markers: fc.array(marker, { maxLength: 3 }),
      appends: fc.array(text, { maxLength: 2 }),
      markerInAppend: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  insertions: fc.array(
    fc.record({ target: fc.nat({ max: 7 }), marker: fc.nat({ max: 7 }), text, continuation: fc.option(text, { freq: 4 }) }),
    { maxLength: 4 },
  ),
  features: fc.nat({ max: 2 }),
});

/** Whether some file to generate declares a proto3 `optional` field (then FEATURE_PROTO3_OPTIONAL is needed). */
export function needsProto3Optional(request: CodeGeneratorRequestValue): boolean {
  const wanted = new Set(request.file_to_generate);
  const inMessage = (m: DescriptorValue): boolean => (m.field ?? []).some((f) => f.proto3Optional === true) || (m.nestedType ?? []).some(inMessage);
  return request.proto_file.some((f) => wanted.has(f.name) && (f.messageType ?? []).some(inMessage));
}

/** A created file, as later insertions see it. */
export interface CreatedFile {
  name: string;
  markers: string[];
}

/**
 * Builds the response a plan describes for `request`, with markers written as
 * `<prefix>(<name>)` (spec A, Rules for File, rule 4). Output names derive from the files to
 * generate and are made unique, so no file is named twice and none names a folder another
 * needs (naming.ts, outputPathsClash). Returns the created files too.
 */
export function buildResponse(request: CodeGeneratorRequestValue, plan: ResponsePlan, markerPrefix: string): { response: CodeGeneratorResponseValue; created: CreatedFile[] } {
  const files: ResponseFileValue[] = [];
  const created: CreatedFile[] = [];
  const names = new Set<string>();
  const sources = request.file_to_generate.length > 0 ? request.file_to_generate : ['out.proto'];

  for (const out of plan.outputs) {
    const source = (sources[out.source % sources.length] ?? 'out.proto').replace(/\.proto$/, '');
    const dir = out.dir === null ? '' : `${DIRS[out.dir % DIRS.length] ?? 'gen'}/`;
    const ext = EXTS[out.ext % EXTS.length] ?? '.txt';
    const name = uniqueName(`${dir}${source}`, (c) => !names.has(`${c}${ext}`) && ![...names].some((n) => outputPathsClash(`${c}${ext}`, n))) + ext;
    names.add(name);

    const markerNames = [...new Set(out.markers.map((m) => m.name))];
    const markers = markerNames.map((n) => out.markers.find((m) => m.name === n)).filter((m) => m !== undefined);
    const inAppend = out.markerInAppend && out.appends.length > 0 ? markers.pop() : undefined;
    const lines = [...out.lines];
    for (const m of markers) lines.splice(Math.min(m.at, lines.length), 0, markerLine(m, markerPrefix));
    files.push({ name, content: lines.map((l) => `${l}\n`).join('') });
    out.appends.forEach((chunk, i) => files.push({ content: i === 0 && inAppend ? `${chunk}${markerLine(inAppend, markerPrefix)}\n` : chunk }));
    created.push({ name, markers: [...markers, ...(inAppend ? [inAppend] : [])].map((m) => m.name) });
  }

  const targets = created.filter((c) => c.markers.length > 0);
  for (const ins of plan.insertions) {
    const target = targets[ins.target % Math.max(1, targets.length)];
    const point = target?.markers[ins.marker % target.markers.length];
    if (!target || point === undefined) continue;
    files.push({ name: target.name, insertion_point: point, content: ins.text });
    if (ins.continuation !== null) files.push({ content: ins.continuation });
  }

  const response: CodeGeneratorResponseValue = {};
  const features = needsProto3Optional(request) ? 2 : plan.features;
  if (features > 0) response.supported_features = features - 1;
  if (files.length > 0) response.file = files;
  return { response, created };
}

function markerLine(m: MarkerPlan, prefix: string): string {
  return `${m.indent}${m.before}${prefix}(${m.name})${m.after}`;
}
