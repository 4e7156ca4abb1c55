/**
 * Shapes of decoded plugin messages (spec A, "Resources and their fields / A. Plugin messages").
 *
 * Plugin messages use the spec's snake_case field names. Descriptors inside `proto_file` keep
 * the camelCase shape of `protobufjs/ext/descriptor` (`messageType`, `typeName`,
 * `proto3Optional`, ...). Enum values are numbers; 64-bit integers are numbers when they fit
 * in a double exactly and decimal strings otherwise; bytes are base64 strings.
 */

/** spec A, `Version`. */
export interface Version {
  major?: number;
  minor?: number;
  patch?: number;
  suffix?: string;
}

/** A field of a message descriptor (the parts the suite reads). */
export interface FieldDescriptorShape {
  name?: string;
  number?: number;
  label?: number;
  type?: number;
  typeName?: string;
  extendee?: string;
  oneofIndex?: number;
  proto3Optional?: boolean;
  [key: string]: unknown;
}

/** A message descriptor (the parts the suite reads). */
export interface DescriptorShape {
  name?: string;
  field?: FieldDescriptorShape[];
  extension?: FieldDescriptorShape[];
  nestedType?: DescriptorShape[];
  [key: string]: unknown;
}

/** A method of a service descriptor. */
export interface MethodDescriptorShape {
  name?: string;
  inputType?: string;
  outputType?: string;
  [key: string]: unknown;
}

/** A file descriptor as `protobufjs/ext/descriptor` FileDescriptorProto.toObject gives it. */
export interface FileDescriptorShape {
  name?: string;
  package?: string;
  dependency?: string[];
  messageType?: DescriptorShape[];
  enumType?: unknown[];
  service?: { name?: string; method?: MethodDescriptorShape[]; [key: string]: unknown }[];
  extension?: FieldDescriptorShape[];
  syntax?: string;
  [key: string]: unknown;
}

/** spec A, `CodeGeneratorRequest`. */
export interface CodeGeneratorRequest {
  file_to_generate?: string[];
  parameter?: string;
  proto_file?: FileDescriptorShape[];
  compiler_version?: Version;
}

/** spec A, `CodeGeneratorResponse.File`. */
export interface GeneratedFile {
  name?: string;
  insertion_point?: string;
  content?: string;
  generated_code_info?: unknown;
}

/** spec A, `CodeGeneratorResponse`. `supported_features` is a uint64. */
export interface CodeGeneratorResponse {
  error?: string;
  supported_features?: number | string | bigint;
  file?: GeneratedFile[];
}

/** A descriptor set (`google.protobuf.FileDescriptorSet`). */
export interface FileDescriptorSetShape {
  file?: FileDescriptorShape[];
}
