import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../types.js';
import { declaresProto3Optional, proto3OptionalFilesToGenerate, unknownFeatureBits } from './features.js';
import { checkFileName } from './file-name.js';
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

/**
 * Everything in one response that a plugin is responsible for (spec A, CodeGeneratorResponse and
 * Rules for File 1-3), judged on the response alone. Insertions into files of other generators
 * are legal here; whether those files exist is the compiler's business.
 * When `error` is set the files are ignored, since the compiler discards them.
 */
export function validatePluginResponse(res: CodeGeneratorResponse, req?: CodeGeneratorRequest): PluginViolation[] {
  const out: PluginViolation[] = [];
  const unknown = unknownFeatureBits(res.supported_features);
  if (unknown !== 0n) {
    out.push(violation('featureBits', `supported_features ${String(res.supported_features)} sets bits 0x${unknown.toString(16)} that are no value of the Feature enum (known: FEATURE_NONE = 0, FEATURE_PROTO3_OPTIONAL = 1)`));
  }
  if (res.error !== undefined && res.error !== '') return out;
  if (req) {
    const optionalFiles = proto3OptionalFilesToGenerate(req);
    if (optionalFiles.length > 0 && !declaresProto3Optional(res.supported_features)) {
      out.push(violation('proto3Optional', `generated code for ${optionalFiles.join(', ')} (proto3 optional fields) without declaring FEATURE_PROTO3_OPTIONAL`));
    }
  }
  const seen = new Set<string>();
  let previous = false;
  (res.file ?? []).forEach((f, i) => {
    const name = f.name ?? '';
    const point = f.insertion_point ?? '';
    if (point !== '' && name === '') out.push(violation('insertionName', `file[${i}] inserts at ${JSON.stringify(point)} but names no file`, i));
    if (name === '' && point === '' && !previous) out.push(violation('appendFirst', `file[${i}] has no name but there is no previous file to append to`, i));
    if (name !== '') {
      const problem = checkFileName(name);
      if (problem) out.push(violation(problem.rule, `file[${i}]: ${problem.message}`, i));
      if (point === '') {
        if (seen.has(name)) out.push(violation('nameOnce', `file[${i}]: ${JSON.stringify(name)} is named a second time`, i));
        seen.add(name);
      }
    }
    previous = true;
  });
  return out;
}
