import { Feature, KNOWN_FEATURE_MASK } from '../feature.js';
import type { CodeGeneratorRequest, DescriptorShape, FileDescriptorShape } from '../types.js';

/** `supported_features` as a bigint (absent is 0, FEATURE_NONE). */
export function featureBits(value: number | string | bigint | undefined): bigint {
  if (value === undefined) return 0n;
  if (typeof value === 'bigint') return value;
  try {
    return BigInt(value);
  } catch {
    return 0n;
  }
}

/** Bits of `supported_features` that are no value of the Feature enum (spec A, CodeGeneratorResponse). */
export function unknownFeatureBits(value: number | string | bigint | undefined): bigint {
  return featureBits(value) & ~KNOWN_FEATURE_MASK;
}

/** Whether `supported_features` declares FEATURE_PROTO3_OPTIONAL. */
export function declaresProto3Optional(value: number | string | bigint | undefined): boolean {
  return (featureBits(value) & BigInt(Feature.PROTO3_OPTIONAL)) !== 0n;
}

function messageHasProto3Optional(m: DescriptorShape): boolean {
  if ((m.field ?? []).some((f) => f.proto3Optional === true)) return true;
  return (m.nestedType ?? []).some(messageHasProto3Optional);
}

/** Whether a file declares a proto3 `optional` field (FieldDescriptorProto.proto3_optional, field 17). */
export function fileHasProto3Optional(file: FileDescriptorShape): boolean {
  return (file.messageType ?? []).some(messageHasProto3Optional);
}

/**
 * Names of the files to generate that declare proto3 optional fields. Only these matter: a
 * generator that never sees such a file to generate needs no FEATURE_PROTO3_OPTIONAL (protoc
 * 3.21 checks the files to generate only, not their imports).
 */
export function proto3OptionalFilesToGenerate(request: CodeGeneratorRequest): string[] {
  const wanted = new Set(request.file_to_generate ?? []);
  return (request.proto_file ?? []).filter((f) => f.name !== undefined && wanted.has(f.name) && fileHasProto3Optional(f)).map((f) => f.name as string);
}
