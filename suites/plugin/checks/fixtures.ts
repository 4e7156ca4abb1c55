import { readFileSync } from 'node:fs';
import { fromRoot } from '../../../src/paths.js';
import { SpecgateError } from '../../../src/errors.js';
import type { CodeGeneratorRequest, FileDescriptorSetShape, Version } from '../../../reference/plugin/types.js';

/**
 * Descriptor sets built once with protoc from `suites/plugin/protos/*.proto` and stored as JSON
 * in `suites/plugin/data/` (test/suites/plugin/data.test.ts keeps them in step with the protos),
 * so running the suite never needs protoc.
 */
export interface DescriptorFixture {
  name: string;
  description: string;
  /** The files a compiler would be asked to generate (the last file of the set and its imports follow). */
  file_to_generate: string[];
  set: FileDescriptorSetShape;
}

/** Stored fixtures and what each exercises. */
export const FIXTURES = {
  shop: 'shop.proto importing common.proto: nested messages, map, oneof, enum, services, streaming',
  optional: 'proto3 optional fields (needs FEATURE_PROTO3_OPTIONAL)',
  legacy: 'proto2: required, default values, extension range and extension',
  plain: 'valid schema without go_package (a schema error for Go generators)',
  event: 'event.proto importing the well-known google/protobuf/timestamp.proto',
} as const;

export type FixtureName = keyof typeof FIXTURES;

const cache = new Map<string, DescriptorFixture>();

export function isFixtureName(name: string): name is FixtureName {
  return Object.hasOwn(FIXTURES, name);
}

/** Loads `suites/plugin/data/<name>.json`. */
export function loadFixture(name: string): DescriptorFixture {
  if (!isFixtureName(name)) {
    throw new SpecgateError('SG_SUITE_UNKNOWN', `no descriptor fixture "${name}" (known: ${Object.keys(FIXTURES).join(', ')})`);
  }
  const hit = cache.get(name);
  if (hit) return hit;
  const path = fromRoot('suites', 'plugin', 'data', `${name}.json`);
  const fixture = JSON.parse(readFileSync(path, 'utf8')) as DescriptorFixture;
  cache.set(name, fixture);
  return fixture;
}

/** The compiler version protoc 3.21.12 sends (its `suffix` is present and empty). */
export const PROTOC_VERSION: Version = { major: 3, minor: 21, patch: 12, suffix: '' };

export interface RequestOptions {
  fileToGenerate?: readonly string[];
  parameter?: string;
  /** `null` leaves compiler_version out (it is optional). */
  compilerVersion?: Version | null;
}

/** A request as a compiler builds it from a fixture (spec A, CodeGeneratorRequest). */
export function requestFor(fixture: DescriptorFixture, opts: RequestOptions = {}): CodeGeneratorRequest {
  const req: CodeGeneratorRequest = { file_to_generate: [...(opts.fileToGenerate ?? fixture.file_to_generate)] };
  if (opts.parameter !== undefined) req.parameter = opts.parameter;
  req.proto_file = fixture.set.file ?? [];
  if (opts.compilerVersion !== null) req.compiler_version = opts.compilerVersion ?? PROTOC_VERSION;
  return req;
}
