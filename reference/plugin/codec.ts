import protobuf from 'protobufjs';
import type { Codec } from '../../src/engine/suite-module.js';
import { SpecgateError } from '../../src/errors.js';
import { pluginType, TypeNames } from './schema.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse, FileDescriptorSetShape } from './types.js';

/**
 * Binary codec for the plugin messages of spec A ("Endpoints / A. Plugin protocol": the binary
 * wire format of the schema language).
 *
 * Encoding accepts the decoded shape (see `types.ts`) and is strict about names: a key that is
 * no field of the message is an error, so a typo in a suite file cannot silently drop a field.
 * Descriptor keys may be written snake_case (`message_type`) or camelCase (`messageType`).
 * Decoding ignores unknown fields, as every protobuf parser must.
 */

const toObjectOptions: protobuf.IConversionOptions = { longs: String, bytes: String, defaults: false };

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

function camel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m: string, c: string) => c.toUpperCase());
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** Rewrites `value` into the exact field names of `type`, recursively; throws on unknown keys. */
function normalise(type: protobuf.Type, value: unknown, path: string): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw new SpecgateError('SG_SUITE_SCHEMA', `${path}: expected an object for ${type.fullName.slice(1)}, got ${JSON.stringify(value)}`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (raw === undefined) continue;
    const field = type.fields[key] ?? type.fields[camel(key)];
    if (!field) {
      const known = Object.keys(type.fields).join(', ');
      throw new SpecgateError('SG_SUITE_SCHEMA', `${path}.${key}: no such field in ${type.fullName.slice(1)} (fields: ${known})`);
    }
    field.resolve();
    const sub = field.resolvedType;
    const conv = (v: unknown, p: string): unknown => {
      if (sub instanceof protobuf.Type) return normalise(sub, v, p);
      if (LONG_TYPES.has(field.type) && (typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+$/.test(v)))) {
        return protobuf.util.LongBits.from(String(v)).toLong(field.type.startsWith('u') || field.type === 'fixed64');
      }
      return v;
    };
    if (field.repeated) {
      if (!Array.isArray(raw)) throw new SpecgateError('SG_SUITE_SCHEMA', `${path}.${key}: expected a list`);
      out[field.name] = raw.map((v: unknown, i: number) => conv(v, `${path}.${key}[${i}]`));
    } else {
      out[field.name] = conv(raw, `${path}.${key}`);
    }
  }
  return out;
}

/** Encodes `value` as the message `fullName` (e.g. `google.protobuf.compiler.CodeGeneratorRequest`). */
export function encodeMessage(fullName: string, value: unknown): Uint8Array {
  const type = pluginType(fullName);
  const normalised = normalise(type, value, type.name);
  const problem = type.verify(normalised);
  if (problem) throw new SpecgateError('SG_SUITE_SCHEMA', `${type.name}: ${problem}`);
  return type.encode(type.fromObject(normalised)).finish();
}

/** Turns decimal-string 64-bit values that fit a double exactly into numbers. */
function narrowLong(v: unknown): unknown {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

/** Decodes bytes as the message `fullName`; throws SG_TARGET_PROTOCOL on malformed input. */
export function decodeMessage(fullName: string, bytes: Uint8Array): Record<string, unknown> {
  const type = pluginType(fullName);
  let message: protobuf.Message;
  try {
    message = type.decode(bytes);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new SpecgateError('SG_TARGET_PROTOCOL', `not a valid ${type.name} (${bytes.length} bytes): ${why}`, { bytes: bytes.length });
  }
  const obj = type.toObject(message, toObjectOptions);
  if (fullName === TypeNames.response && 'supported_features' in obj) {
    obj['supported_features'] = narrowLong(obj['supported_features']);
  }
  return obj;
}

export function encodeRequest(req: CodeGeneratorRequest): Uint8Array {
  return encodeMessage(TypeNames.request, req);
}
export function decodeRequest(bytes: Uint8Array): CodeGeneratorRequest {
  return decodeMessage(TypeNames.request, bytes) as CodeGeneratorRequest;
}
export function encodeResponse(res: CodeGeneratorResponse): Uint8Array {
  return encodeMessage(TypeNames.response, res);
}
export function decodeResponse(bytes: Uint8Array): CodeGeneratorResponse {
  return decodeMessage(TypeNames.response, bytes) as CodeGeneratorResponse;
}
export function encodeDescriptorSet(set: FileDescriptorSetShape): Uint8Array {
  return encodeMessage(TypeNames.fileDescriptorSet, set);
}
export function decodeDescriptorSet(bytes: Uint8Array): FileDescriptorSetShape {
  return decodeMessage(TypeNames.fileDescriptorSet, bytes) as FileDescriptorSetShape;
}

function codecFor(fullName: string): Codec {
  return {
    encode: (value: unknown) => encodeMessage(fullName, value),
    decode: (bytes: Uint8Array) => decodeMessage(fullName, bytes),
  };
}

/** The codecs the plugin suite registers (`plugin.CodeGeneratorRequest`, ...). */
export const pluginCodecs: Record<string, Codec> = {
  CodeGeneratorRequest: codecFor(TypeNames.request),
  CodeGeneratorResponse: codecFor(TypeNames.response),
  FileDescriptorSet: codecFor(TypeNames.fileDescriptorSet),
  Version: codecFor(TypeNames.version),
};
