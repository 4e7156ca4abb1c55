import { bytesField, fields, leanFileDescriptor, Reader, varint, WireError } from './lean-codec.js';
import { decodeCodeInfo } from './model/code-info.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse, FileDescriptorShape, GeneratedFile, Version } from './types.js';

/**
 * What the reference driver reads and writes, without protobufjs: the driver starts once per
 * compiler run of every compiler-side case, and loading protobufjs and the descriptor schema
 * cost about 40 ms of each start. Descriptors are passed through as the descriptor set holds
 * them, byte for byte (spec A, CodeGeneratorRequest: "descriptors of all files"); only what the
 * driver needs of them (name, imports, messages for proto3 optional fields) is decoded.
 */

/** The exact bytes each descriptor was read from, for writing it on unchanged. */
const rawBytes = new WeakMap<FileDescriptorShape, Uint8Array>();

/** The bytes a descriptor of {@link readDescriptorSet} was read from (undefined for any other object). */
export function rawDescriptor(file: FileDescriptorShape): Uint8Array | undefined {
  return rawBytes.get(file);
}

/** The files of an encoded FileDescriptorSet (`repeated FileDescriptorProto file = 1`). Throws WireError. */
export function readDescriptorSet(buf: Uint8Array): FileDescriptorShape[] {
  const out: FileDescriptorShape[] = [];
  const r = new Reader(buf);
  while (r.pos < r.end) {
    const tag = r.int32();
    if (tag >>> 3 !== 1 || (tag & 7) !== 2) {
      r.skip(tag & 7, tag >>> 3);
      continue;
    }
    const sub = r.sub();
    const file = leanFileDescriptor(new Reader(buf.subarray(sub.pos, sub.end)));
    rawBytes.set(file, buf.subarray(sub.pos, sub.end));
    out.push(file);
  }
  return out;
}

const utf8e = new TextEncoder();
const utf8 = new TextDecoder();

function versionBytes(v: Version): number[] {
  const out: number[] = [];
  for (const [n, value] of [[1, v.major], [2, v.minor], [3, v.patch]] as const) {
    if (value === undefined) continue;
    varint(out, n << 3);
    varint(out, value);
  }
  if (v.suffix !== undefined) bytesField(out, 4, utf8e.encode(v.suffix));
  return out;
}

/**
 * A request in protoc's field order (1, 2, 3, then 15), each descriptor written as it was read.
 * A descriptor object that was not read by {@link readDescriptorSet} (a copy a hook made) has no
 * bytes to write: such a hook encodes the request itself (DriverHooks.encodeRequest).
 */
export function encodeDriverRequest(req: CodeGeneratorRequest): Uint8Array {
  const out: number[] = [];
  for (const f of req.file_to_generate ?? []) bytesField(out, 1, utf8e.encode(f));
  if (req.parameter !== undefined) bytesField(out, 2, utf8e.encode(req.parameter));
  if (req.compiler_version !== undefined) bytesField(out, 3, versionBytes(req.compiler_version));
  for (const f of req.proto_file ?? []) {
    const raw = rawBytes.get(f);
    if (!raw) throw new WireError(`proto_file ${f.name ?? '?'} was not read from the descriptor set; encode the request with the full codec`);
    bytesField(out, 15, raw);
  }
  return Uint8Array.from(out);
}

/** A uint64 varint, as a number when it fits exactly (as the full codec gives it), else a decimal string. */
function uint64(r: Reader): number | string {
  let v = 0n;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    if (r.pos >= r.end) throw new WireError('truncated varint');
    const b = r.buf[r.pos++] as number;
    v |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) {
      v &= (1n << 64n) - 1n;
      return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
    }
  }
  throw new WireError('varint longer than 10 bytes');
}

function text(r: Reader): string {
  const sub = r.sub();
  return utf8.decode(r.buf.subarray(sub.pos, sub.end));
}

function generatedFile(r: Reader): GeneratedFile {
  const f: GeneratedFile = {};
  // lenient: a field with another wire type is skipped as an unknown one, as protobuf parsers read it
  fields(r, { 1: 2, 2: 2, 15: 2, 16: 2 }, (n, r) => {
    if (n === 1) f.name = text(r);
    else if (n === 2) f.insertion_point = text(r);
    else if (n === 15) f.content = text(r);
    else {
      const sub = r.sub();
      f.generated_code_info = { annotation: decodeCodeInfo(r.buf.subarray(sub.pos, sub.end)) };
    }
  }, true);
  return f;
}

/** A plugin's answer, decoded as the full codec decodes it (the shape of `codec.ts`). Throws WireError. */
export function decodeDriverResponse(buf: Uint8Array): CodeGeneratorResponse {
  const res: CodeGeneratorResponse = {};
  fields(new Reader(buf), { 1: 2, 2: 0, 15: 2 }, (n, r) => {
    if (n === 1) res.error = text(r);
    else if (n === 2) res.supported_features = uint64(r);
    else (res.file ??= []).push(generatedFile(r.sub()));
  }, true);
  return res;
}
