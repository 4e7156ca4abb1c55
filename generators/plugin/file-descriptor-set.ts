import type fc from 'fast-check';
import type { FileDescriptorSetValue } from './descriptor-types.js';
import { buildDescriptorSet } from './build-descriptor-set.js';
import { setPlan, type PlanLimits } from './descriptor-plan.js';

/**
 * Valid descriptor sets (FileDescriptorSet as plain objects in the codec's decoded shape): proto2 and proto3
 * files, with and without packages, nested messages and enums, oneofs, map fields, proto3
 * `optional`, proto2 extensions and defaults, services with streaming methods, and imports
 * (public ones too) in topological order, some of them of well-known types
 * (google/protobuf/timestamp.proto and others, as the compiler ships them) — the `proto_file` of a CodeGeneratorRequest
 * (spec A, "Plugin messages").
 *
 * Built by mapping a structural plan deterministically, so shrinking (which shrinks the plan)
 * yields smaller sets that are still valid.
 */
export function fileDescriptorSet(limits: Partial<PlanLimits> = {}): fc.Arbitrary<FileDescriptorSetValue> {
  return setPlan(limits).map(buildDescriptorSet);
}
