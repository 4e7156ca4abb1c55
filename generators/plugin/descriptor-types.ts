/**
 * Plain-object shapes of the descriptor messages carried in `CodeGeneratorRequest.proto_file`
 * (spec A, "Plugin messages": proto_file is a repeated FileDescriptorProto).
 *
 * Descriptor keys are camelCase (`messageType`, `jsonName`, `proto3Optional`), as protobuf.js'
 * descriptor schema names them and as the plugin codec decodes `proto_file`; the plugin messages
 * themselves keep the spec's snake_case names (`file_to_generate`, `insertion_point`). Enums are
 * numbers, and empty repeated fields and unset optional fields are left out, so a generated value
 * deep-equals the same message after encoding and decoding. Declared as type aliases (not
 * interfaces) so values are assignable to the reference model's open-ended descriptor shapes.
 */

/** `FieldDescriptorProto.Label` numbers. */
export const Label = { OPTIONAL: 1, REQUIRED: 2, REPEATED: 3 } as const;
export type LabelNumber = (typeof Label)[keyof typeof Label];

/** `FieldDescriptorProto.Type` numbers. */
export const FieldType = {
  DOUBLE: 1,
  FLOAT: 2,
  INT64: 3,
  UINT64: 4,
  INT32: 5,
  FIXED64: 6,
  FIXED32: 7,
  BOOL: 8,
  STRING: 9,
  GROUP: 10,
  MESSAGE: 11,
  BYTES: 12,
  UINT32: 13,
  ENUM: 14,
  SFIXED32: 15,
  SFIXED64: 16,
  SINT32: 17,
  SINT64: 18,
} as const;
export type FieldTypeNumber = (typeof FieldType)[keyof typeof FieldType];

/** Scalar types a field may have (every type except group, message and enum). */
export const SCALAR_TYPES: readonly FieldTypeNumber[] = [
  FieldType.DOUBLE,
  FieldType.FLOAT,
  FieldType.INT64,
  FieldType.UINT64,
  FieldType.INT32,
  FieldType.FIXED64,
  FieldType.FIXED32,
  FieldType.BOOL,
  FieldType.STRING,
  FieldType.BYTES,
  FieldType.UINT32,
  FieldType.SFIXED32,
  FieldType.SFIXED64,
  FieldType.SINT32,
  FieldType.SINT64,
];

/** Types allowed as map keys: integral types, bool and string (no floats, bytes, enums, messages). */
export const MAP_KEY_TYPES: readonly FieldTypeNumber[] = [
  FieldType.INT32,
  FieldType.INT64,
  FieldType.UINT32,
  FieldType.UINT64,
  FieldType.SINT32,
  FieldType.SINT64,
  FieldType.FIXED32,
  FieldType.FIXED64,
  FieldType.SFIXED32,
  FieldType.SFIXED64,
  FieldType.BOOL,
  FieldType.STRING,
];

/** Largest field number (2^29 - 1); extension range ends are exclusive, so they may be one more. */
export const MAX_FIELD_NUMBER = 536_870_911;
/** Field numbers the wire format implementation reserves for itself. */
export const RESERVED_FIELD_NUMBERS = { start: 19_000, end: 19_999 } as const;

/** `FieldOptions` (the options the generator sets). */
export type FieldOptionsValue = {
  packed?: boolean;
  deprecated?: boolean;
};

/** `FieldDescriptorProto`: a field or an extension. */
export type FieldDescriptorValue = {
  name: string;
  number: number;
  label: LabelNumber;
  type: FieldTypeNumber;
  /** Fully qualified, with a leading dot. */
  typeName?: string;
  /** Fully qualified, with a leading dot; extensions only. */
  extendee?: string;
  defaultValue?: string;
  oneofIndex?: number;
  jsonName: string;
  options?: FieldOptionsValue;
  proto3Optional?: boolean;
};

/** `OneofDescriptorProto`. */
export type OneofDescriptorValue = {
  name: string;
};

/** `extensionRange` and `reservedRange` of a message: `end` is exclusive. */
export type MessageRangeValue = {
  start: number;
  end: number;
};

/** `MessageOptions`; `mapEntry` marks a synthesized map entry. */
export type MessageOptionsValue = {
  mapEntry?: boolean;
  deprecated?: boolean;
};

/** `DescriptorProto`: a message. */
export type DescriptorValue = {
  name: string;
  field?: FieldDescriptorValue[];
  extension?: FieldDescriptorValue[];
  nestedType?: DescriptorValue[];
  enumType?: EnumDescriptorValue[];
  extensionRange?: MessageRangeValue[];
  oneofDecl?: OneofDescriptorValue[];
  options?: MessageOptionsValue;
  reservedRange?: MessageRangeValue[];
  reservedName?: string[];
};

/** `EnumValueDescriptorProto`. */
export type EnumValueDescriptorValue = {
  name: string;
  number: number;
  options?: { deprecated?: boolean };
};

/** Enum reserved ranges are inclusive at both ends (unlike message ranges). */
export type EnumRangeValue = {
  start: number;
  end: number;
};

/** `EnumDescriptorProto`. */
export type EnumDescriptorValue = {
  name: string;
  value: EnumValueDescriptorValue[];
  options?: { allowAlias?: boolean; deprecated?: boolean };
  reservedRange?: EnumRangeValue[];
  reservedName?: string[];
};

/** `MethodDescriptorProto`; streaming flags are set only when true, as the compiler writes them. */
export type MethodDescriptorValue = {
  name: string;
  inputType: string;
  outputType: string;
  clientStreaming?: boolean;
  serverStreaming?: boolean;
};

/** `ServiceDescriptorProto`. */
export type ServiceDescriptorValue = {
  name: string;
  method?: MethodDescriptorValue[];
};

/** `FileOptions` (the options the generator sets). */
export type FileOptionsValue = {
  goPackage?: string;
  deprecated?: boolean;
};

/** `FileDescriptorProto`: one element of CodeGeneratorRequest.proto_file (spec A). */
export type FileDescriptorValue = {
  name: string;
  package?: string;
  dependency?: string[];
  messageType?: DescriptorValue[];
  enumType?: EnumDescriptorValue[];
  service?: ServiceDescriptorValue[];
  extension?: FieldDescriptorValue[];
  options?: FileOptionsValue;
  /** Indexes into `dependency`. */
  publicDependency?: number[];
  /** Absent for proto2 files, as the compiler writes them; `proto3` otherwise. */
  syntax?: 'proto3';
};

/** `FileDescriptorSet`: the files of a set, in topological order. */
export type FileDescriptorSetValue = {
  file: FileDescriptorValue[];
};

/** spec A, "Plugin messages", Version. */
export type VersionValue = {
  major?: number;
  minor?: number;
  patch?: number;
  suffix?: string;
};

/** spec A, "Plugin messages", CodeGeneratorRequest. */
export type CodeGeneratorRequestValue = {
  file_to_generate: string[];
  parameter?: string;
  proto_file: FileDescriptorValue[];
  compiler_version?: VersionValue;
};

/** spec A, "Plugin messages", CodeGeneratorResponse.File. */
export type ResponseFileValue = {
  name?: string;
  insertion_point?: string;
  content?: string;
};

/** spec A, "Plugin messages", CodeGeneratorResponse. */
export type CodeGeneratorResponseValue = {
  error?: string;
  supported_features?: number;
  file?: ResponseFileValue[];
};
