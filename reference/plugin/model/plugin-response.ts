import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../types.js';
import { declaresProto3Optional, proto3OptionalFilesToGenerate, unknownFeatureBits } from './features.js';
import { checkFileName } from './file-name.js';
import { DEFAULT_MARKER_PREFIX, insertAtPoint } from './insertion.js';
import { Rules, type RuleKey } from './rules.js';

/** Something a plugin's response must not contain, named by the plugin-side requirement. */
export interface PluginViolation {
  requirement: string;
  key: RuleKey;
  fileIndex?: number;
  message: string;
}

function violation(key: RuleKey, message: string, fileIndex?: number): PluginViolation {
  const pair = Rules[key] as { plugin?: string };
  return { requirement: pair.plugin ?? '', key, message, ...(fileIndex === undefined ? {} : { fileIndex }) };
}

/** How a response is judged: the compiler's marker, and what the invocation held before it. */
export interface PluginResponseOptions {
  /** `@@<compiler>_insertion_point`; `@@protoc_insertion_point` by default. */
  markerPrefix?: string;
  /**
   * Files that generators running before this plugin in the same invocation created (name ->
   * content). None by default: a plugin judged on its own runs alone, so an insertion can only
   * go into a file its own response created before it (Rules for File, rules 3 and 6).
   */
  existing?: ReadonlyMap<string, string>;
}

/** An insertion whose text is still being continued by nameless chunks. */
interface OpenInsertion {
  name: string;
  point: string;
  text: string;
  index: number;
}

/**
 * Everything in one response that a plugin is responsible for (spec A, CodeGeneratorResponse and
 * Rules for File 1-4), judged on the response alone. An insertion must go into a file that
 * exists in the invocation (created earlier in this response, or listed in `opts.existing`) at
 * a point marked in it; its text, continued by nameless chunks, is applied as the compiler would,
 * so later insertions see the markers earlier ones carried.
 * When `error` is set the files are ignored, since the compiler discards them; but a response
 * that sets `error` and still carries files says generation failed while it produced output.
 */
export function validatePluginResponse(res: CodeGeneratorResponse, req?: CodeGeneratorRequest, opts: PluginResponseOptions = {}): PluginViolation[] {
  const out: PluginViolation[] = [];
  const unknown = unknownFeatureBits(res.supported_features);
  if (unknown !== 0n) {
    out.push(violation('featureBits', `supported_features ${String(res.supported_features)} sets bits 0x${unknown.toString(16)} that are no value of the Feature enum (known: FEATURE_NONE = 0, FEATURE_PROTO3_OPTIONAL = 1)`));
  }
  if (res.error !== undefined && res.error !== '') {
    const files = res.file ?? [];
    if (files.length > 0) {
      out.push(violation('errorWithFiles', `error is set (${JSON.stringify(res.error.slice(0, 200))}) although the response carries ${files.length} generated file(s): error means generation failed, and the compiler discards the files`));
    }
    return out;
  }
  if (req) {
    const optionalFiles = proto3OptionalFilesToGenerate(req);
    if (optionalFiles.length > 0 && !declaresProto3Optional(res.supported_features)) {
      out.push(violation('proto3Optional', `generated code for ${optionalFiles.join(', ')} (proto3 optional fields) without declaring FEATURE_PROTO3_OPTIONAL`));
    }
  }
  const prefix = opts.markerPrefix ?? DEFAULT_MARKER_PREFIX;
  const contents = new Map<string, string>(opts.existing ?? []);
  const seen = new Set<string>();
  const unjudged = new Set<string>();
  let previous = false;
  let appendTo: string | undefined;
  let insertion: OpenInsertion | undefined;
  const closeInsertion = (): void => {
    if (!insertion) return;
    const target = contents.get(insertion.name);
    if (target !== undefined && !unjudged.has(insertion.name)) {
      const result = insertAtPoint(target, insertion.point, insertion.text, prefix);
      if (result.ok) contents.set(insertion.name, result.content);
      else out.push(violation('insertionMarker', `file[${insertion.index}] inserts at ${JSON.stringify(insertion.point)} of ${JSON.stringify(insertion.name)}, which marks no such point: ${result.message}`, insertion.index));
    }
    insertion = undefined;
  };
  (res.file ?? []).forEach((f, i) => {
    const name = f.name ?? '';
    const point = f.insertion_point ?? '';
    const content = f.content ?? '';
    if (point !== '' && name === '') out.push(violation('insertionName', `file[${i}] inserts at ${JSON.stringify(point)} but names no file`, i));
    if (name === '' && point === '' && !previous) out.push(violation('appendFirst', `file[${i}] has no name but there is no previous file to append to`, i));
    if (name !== '' || point !== '') closeInsertion();
    if (name !== '') {
      const problem = checkFileName(name);
      if (problem) out.push(violation(problem.rule, `file[${i}]: ${problem.message}`, i));
      if (point === '' && seen.has(name)) {
        out.push(violation('nameOnce', `file[${i}]: ${JSON.stringify(name)} is named a second time`, i));
        // which copy a compiler would keep is not for the plugin to tell: its markers are not judged
        unjudged.add(name);
        appendTo = undefined;
      } else if (point === '') {
        seen.add(name);
        contents.set(name, content);
        appendTo = name;
      } else if (!problem) {
        appendTo = undefined;
        if (contents.has(name)) insertion = { name, point, text: content, index: i };
        else out.push(violation('insertionTarget', `file[${i}] inserts at ${JSON.stringify(point)} of ${JSON.stringify(name)}, a file that does not exist yet: no file of this invocation created it before this insertion`, i));
      } else {
        appendTo = undefined;
      }
    } else if (point !== '') {
      appendTo = undefined;
    } else if (insertion) {
      // after an insertion, a nameless chunk continues the inserted text (as the compiler reads it)
      insertion.text += content;
    } else if (appendTo !== undefined) {
      contents.set(appendTo, (contents.get(appendTo) ?? '') + content);
    }
    previous = true;
  });
  closeInsertion();
  return out;
}
