import fc from 'fast-check';
import { DEFAULT_MARKER_PREFIX } from '../../reference/plugin/model/insertion.js';
import { Rules, type RuleKey } from '../../reference/plugin/model/rules.js';
import { codeGeneratorRequest, type RequestOptions } from './code-generator-request.js';
import type { CodeGeneratorRequestValue, CodeGeneratorResponseValue, ResponseFileValue } from './descriptor-types.js';
import type { ResponseOptions } from './code-generator-response.js';
import { uniqueName } from './naming.js';
import { buildResponse, responsePlan, type CreatedFile, type ResponsePlan } from './response-plan.js';

/** The one defect planted into an otherwise valid response. */
export type DefectKind =
  | 'absolute-name'
  | 'dot-dot-component'
  | 'dot-component'
  | 'backslash'
  | 'append-first'
  | 'insertion-without-name'
  | 'insertion-into-missing-file'
  | 'insertion-without-marker'
  | 'name-twice'
  | 'unknown-feature-bits';

/** Which rule of spec A the defect breaks (see reference/plugin/model/rules.ts). */
const DEFECT_RULES: Record<DefectKind, RuleKey> = {
  'absolute-name': 'nameRelative', // Rules for File, rule 1
  'dot-dot-component': 'nameDotComponents', // rule 1
  'dot-component': 'nameDotComponents', // rule 1
  backslash: 'nameSeparator', // rule 1
  'append-first': 'appendFirst', // rule 2
  'insertion-without-name': 'insertionName', // rule 3
  'insertion-into-missing-file': 'insertionTarget', // rules 3 and 6
  'insertion-without-marker': 'insertionMarker', // rule 4
  'name-twice': 'nameOnce', // rule 2
  'unknown-feature-bits': 'featureBits', // CodeGeneratorResponse.supported_features
};
export const DEFECT_KINDS = Object.keys(DEFECT_RULES) as DefectKind[];

const BAD_NAMES: Partial<Record<DefectKind, readonly string[]>> = {
  'absolute-name': ['/abs/out.txt', '/x', 'C:/gen/x.h'],
  'dot-dot-component': ['../x.txt', 'gen/../../x.txt', 'a/..'],
  'dot-component': ['./x.txt', 'a/./b.txt', '.'],
  backslash: ['gen\\x.txt', 'a\\b\\c.h', 'win\\..\\x'],
};

export interface BrokenResponseValue {
  response: CodeGeneratorResponseValue;
  defect: DefectKind;
  rule: RuleKey;
  /** The plugin-side requirement the response breaks, when a plugin is to blame. */
  plugin?: string;
  /** The compiler-side requirement a compiler breaks by accepting (or misapplying) it. */
  compiler?: string;
  /** Index in `response.file` of the offending File, when there is one. */
  fileIndex?: number;
}

export interface DefectPlan {
  kind: number;
  position: number;
  variant: number;
}

export const defectPlan: fc.Arbitrary<DefectPlan> = fc.record({ kind: fc.nat({ max: DEFECT_KINDS.length - 1 }), position: fc.nat({ max: 15 }), variant: fc.nat({ max: 60 }) });

/** Index of the File that creates `name` (named, no insertion point). */
function creationIndex(files: readonly ResponseFileValue[], name: string): number {
  return files.findIndex((f) => f.name === name && (f.insertion_point ?? '') === '');
}

/** Makes sure the response creates at least one file, returning one of them. */
function someCreated(files: ResponseFileValue[], created: CreatedFile[], pick: number): CreatedFile {
  const existing = created[pick % Math.max(1, created.length)];
  if (existing) return existing;
  const fresh = { name: 'planted.txt', markers: [] };
  files.push({ name: fresh.name, content: 'planted\n' });
  return fresh;
}

/**
 * Plants one defect into the valid response of `plan`: exactly one rule of spec A is broken, so
 * the reference model's first objection is that rule. Returned with the rule and both
 * requirement IDs it maps to.
 */
export function plantDefect(request: CodeGeneratorRequestValue, plan: ResponsePlan, defect: DefectPlan, markerPrefix: string): BrokenResponseValue {
  const { response, created } = buildResponse(request, plan, markerPrefix);
  const files = [...(response.file ?? [])];
  const kind = DEFECT_KINDS[defect.kind % DEFECT_KINDS.length] ?? 'absolute-name';
  // Plant only where the next File is named (or at the end): a File placed before a nameless
  // chunk would take that chunk over and break a second rule for a compiler that goes on.
  const at = (from: number): number => {
    const spots: number[] = [];
    for (let i = Math.max(0, from); i <= files.length; i++) if (i === files.length || files[i]?.name !== undefined) spots.push(i);
    return spots[defect.position % spots.length] ?? files.length;
  };
  let fileIndex: number | undefined;
  const place = (index: number, file: ResponseFileValue): void => {
    files.splice(index, 0, file);
    fileIndex = index;
  };

  const badNames = BAD_NAMES[kind];
  if (badNames) {
    place(at(0), { name: badNames[defect.variant % badNames.length] ?? '/x', content: 'bad\n' });
  } else if (kind === 'append-first') {
    place(0, { content: 'orphan chunk\n' });
  } else if (kind === 'insertion-without-name') {
    place(at(0), { insertion_point: 'imports', content: 'inserted\n' });
  } else if (kind === 'insertion-into-missing-file') {
    const names = new Set(files.map((f) => f.name ?? ''));
    place(at(0), { name: uniqueName('never/created', (c) => !names.has(`${c}.txt`)) + '.txt', insertion_point: 'imports', content: 'inserted\n' });
  } else if (kind === 'insertion-without-marker') {
    const target = someCreated(files, created, defect.variant);
    place(at(creationIndex(files, target.name) + 1), { name: target.name, insertion_point: 'no_such_point', content: 'inserted\n' });
  } else if (kind === 'name-twice') {
    const target = someCreated(files, created, defect.variant);
    place(at(creationIndex(files, target.name) + 1), { name: target.name, content: 'second copy\n' });
  }

  const out: CodeGeneratorResponseValue = { ...response };
  if (kind === 'unknown-feature-bits') out.supported_features = (response.supported_features ?? 0) + 2 ** (1 + (defect.variant % 52));
  if (files.length > 0) out.file = files;
  const rule = DEFECT_RULES[kind];
  const pair: { plugin?: string; compiler?: string } = Rules[rule];
  const broken: BrokenResponseValue = { response: out, defect: kind, rule };
  if (pair.plugin !== undefined) broken.plugin = pair.plugin;
  if (pair.compiler !== undefined) broken.compiler = pair.compiler;
  if (fileIndex !== undefined) broken.fileIndex = fileIndex;
  return broken;
}

/** Responses to `request` that break exactly one rule of spec A, labeled with it. */
export function brokenCodeGeneratorResponse(request: CodeGeneratorRequestValue, opts: ResponseOptions = {}): fc.Arbitrary<BrokenResponseValue> {
  const prefix = opts.markerPrefix ?? DEFAULT_MARKER_PREFIX;
  return fc.tuple(responsePlan, defectPlan).map(([plan, defect]) => plantDefect(request, plan, defect, prefix));
}

/** A valid request with a response that breaks exactly one rule, labeled with it. */
export function brokenPluginExchange(opts: RequestOptions & ResponseOptions = {}): fc.Arbitrary<BrokenResponseValue & { request: CodeGeneratorRequestValue }> {
  const prefix = opts.markerPrefix ?? DEFAULT_MARKER_PREFIX;
  return fc
    .tuple(codeGeneratorRequest(opts), responsePlan, defectPlan)
    .map(([request, plan, defect]) => ({ request, ...plantDefect(request, plan, defect, prefix) }));
}
