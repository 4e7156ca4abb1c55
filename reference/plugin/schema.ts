import { createRequire } from 'node:module';
import protobuf from 'protobufjs';

/**
 * The plugin messages of spec A ("Resources and their fields / A. Plugin messages"), written
 * from the spec's field tables. Field names are the spec's snake_case names (`file_to_generate`,
 * `insertion_point`, ...), so decoded plugin messages read like the spec.
 *
 * The descriptor messages carried in `proto_file` come from protobufjs' own descriptor schema
 * (the one behind `protobufjs/ext/descriptor`), which names fields in camelCase (`messageType`,
 * `proto3Optional`, ...). Keeping that shape means descriptor sets built with
 * `protobufjs/ext/descriptor` (`FileDescriptorProto.toObject`) plug straight into a request.
 */
const pluginMessages: protobuf.INamespace = {
  nested: {
    Version: {
      edition: 'proto2',
      fields: {
        major: { type: 'int32', id: 1 },
        minor: { type: 'int32', id: 2 },
        patch: { type: 'int32', id: 3 },
        suffix: { type: 'string', id: 4 },
      },
    },
    CodeGeneratorRequest: {
      edition: 'proto2',
      fields: {
        file_to_generate: { rule: 'repeated', type: 'string', id: 1 },
        parameter: { type: 'string', id: 2 },
        proto_file: { rule: 'repeated', type: 'google.protobuf.FileDescriptorProto', id: 15 },
        compiler_version: { type: 'Version', id: 3 },
      },
    },
    CodeGeneratorResponse: {
      edition: 'proto2',
      fields: {
        error: { type: 'string', id: 1 },
        supported_features: { type: 'uint64', id: 2 },
        file: { rule: 'repeated', type: 'File', id: 15 },
      },
      nested: {
        Feature: { values: { FEATURE_NONE: 0, FEATURE_PROTO3_OPTIONAL: 1 } },
        File: {
          edition: 'proto2',
          fields: {
            name: { type: 'string', id: 1 },
            insertion_point: { type: 'string', id: 2 },
            content: { type: 'string', id: 15 },
            generated_code_info: { type: 'google.protobuf.GeneratedCodeInfo', id: 16 },
          },
        },
      },
    },
  },
};

let cachedRoot: protobuf.Root | undefined;

/** The protobufjs root holding `google.protobuf.*` descriptors and `google.protobuf.compiler.*`. */
export function pluginRoot(): protobuf.Root {
  if (cachedRoot) return cachedRoot;
  const require = createRequire(import.meta.url);
  // A fresh root from the same JSON `protobufjs/ext/descriptor` uses: same shapes, but our own
  // instance, so adding the compiler namespace never touches a root other modules share.
  const descriptorJson = require('protobufjs/google/protobuf/descriptor.json') as protobuf.INamespace;
  const root = protobuf.Root.fromJSON(descriptorJson);
  root.define('google.protobuf.compiler', pluginMessages.nested);
  root.resolveAll();
  cachedRoot = root;
  return root;
}

/** Looks up one message type of the plugin schema by its full name. */
export function pluginType(fullName: string): protobuf.Type {
  return pluginRoot().lookupType(fullName);
}

/** Full names of the message types the suite encodes and decodes. */
export const TypeNames = {
  request: 'google.protobuf.compiler.CodeGeneratorRequest',
  response: 'google.protobuf.compiler.CodeGeneratorResponse',
  version: 'google.protobuf.compiler.Version',
  fileDescriptorSet: 'google.protobuf.FileDescriptorSet',
  fileDescriptorProto: 'google.protobuf.FileDescriptorProto',
} as const;

export { Feature, KNOWN_FEATURE_MASK } from './feature.js';
