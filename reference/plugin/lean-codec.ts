import type {
  CodeGeneratorRequest, CodeGeneratorResponse, DescriptorShape, FieldDescriptorShape, FileDescriptorShape, MethodDescriptorShape, Version,
} from './types.js';

/**
 * A small hand-written codec for what the reference plugin reads and writes, so that the plugin
 * starts without loading protobufjs and building the descriptor schema (the fuzzer starts it
 * thousands of times; measured: about 55 ms saved per start). It decodes only the request
 * fields the generator uses into the same shape as `codec.ts` (other fields are skipped, as
 * unknown fields must be) and encodes responses byte for byte as `codec.ts` does; a test
 * holds both to that.
 *
 * It is strict about structure: a known field with the wrong wire type, a truncated field or
 * a bad wire type is an error (spec A, Errors 2: an unparseable request).
 */
export class WireError extends Error {}

const utf8 = new TextDecoder();

/** A cursor over one message (or one field's payload) of the wire format. */
export class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array, readonly end: number = buf.length) {}

  /** A varint; returns the low 32 bits as an int32 (enough for every field read here). */
  int32(): number {
    let lo = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.pos >= this.end) throw new WireError('truncated varint');
      const b = this.buf[this.pos++] as number;
      if (shift < 32) lo |= (b & 0x7f) << shift;
      if (b < 0x80) return lo | 0;
    }
    throw new WireError('varint longer than 10 bytes');
  }

  sub(): Reader {
    const len = this.int32();
    if (len < 0 || this.pos + len > this.end) throw new WireError('length-delimited field runs past the end');
    const r = new Reader(this.buf, this.pos + len);
    r.pos = this.pos;
    this.pos += len;
    return r;
  }

  string(): string {
    const r = this.sub();
    return utf8.decode(this.buf.subarray(r.pos, r.end));
  }

  skip(wireType: number, field: number): void {
    switch (wireType) {
      case 0: this.int32(); return;
      case 1: this.pos += 8; break;
      case 2: this.sub(); return;
      case 5: this.pos += 4; break;
      case 3:
        for (;;) {
          if (this.pos >= this.end) throw new WireError(`group ${field} not closed`);
          const tag = this.int32();
          if ((tag & 7) === 4) {
            if (tag >>> 3 !== field) throw new WireError(`group ${field} closed by ${tag >>> 3}`);
            return;
          }
          this.skip(tag & 7, tag >>> 3);
        }
      default: throw new WireError(`unexpected wire type ${wireType} (field ${field})`);
    }
    if (this.pos > this.end) throw new WireError(`field ${field} runs past the end`);
  }
}

/**
 * Reads fields until the end: known fields with their wire type go to `on`, unknown fields are
 * skipped. A known field with another wire type is an error, or, with `lenient` (as a protobuf
 * parser reads it), skipped as an unknown one.
 */
export function fields(r: Reader, wireTypes: Readonly<Record<number, number>>, on: (field: number, r: Reader) => void, lenient = false): void {
  while (r.pos < r.end) {
    const tag = r.int32();
    const field = tag >>> 3;
    const wt = tag & 7;
    if (field === 0) throw new WireError('field number 0');
    const want = wireTypes[field];
    if (want === wt) on(field, r);
    else if (want === undefined || lenient) r.skip(wt, field);
    else throw new WireError(`field ${field} has wire type ${wt}, expected ${want}`);
  }
}

function push<T>(list: T[] | undefined, v: T): T[] {
  return list ? (list.push(v), list) : [v];
}

function field(r: Reader): FieldDescriptorShape {
  const f: FieldDescriptorShape = {};
  fields(r, { 1: 2, 3: 0, 4: 0, 5: 0, 6: 2, 17: 0 }, (n, r) => {
    if (n === 1) f.name = r.string();
    else if (n === 3) f.number = r.int32();
    else if (n === 4) f.label = r.int32();
    else if (n === 5) f.type = r.int32();
    else if (n === 6) f.typeName = r.string();
    else f.proto3Optional = r.int32() !== 0;
  });
  return f;
}

function message(r: Reader): DescriptorShape {
  const m: DescriptorShape = {};
  fields(r, { 1: 2, 2: 2, 3: 2 }, (n, r) => {
    if (n === 1) m.name = r.string();
    else if (n === 2) m.field = push(m.field, field(r.sub()));
    else m.nestedType = push(m.nestedType, message(r.sub()));
  });
  return m;
}

function method(r: Reader): MethodDescriptorShape {
  const m: MethodDescriptorShape = {};
  fields(r, { 1: 2, 2: 2, 3: 2 }, (n, r) => {
    const s = r.string();
    if (n === 1) m.name = s;
    else if (n === 2) m.inputType = s;
    else m.outputType = s;
  });
  return m;
}

function service(r: Reader): NonNullable<FileDescriptorShape['service']>[number] {
  const s: NonNullable<FileDescriptorShape['service']>[number] = {};
  fields(r, { 1: 2, 2: 2 }, (n, r) => {
    if (n === 1) s.name = r.string();
    else s.method = push(s.method, method(r.sub()));
  });
  return s;
}

/** The parts of a FileDescriptorProto the reference generator and driver read. */
export function leanFileDescriptor(r: Reader): FileDescriptorShape {
  const f: FileDescriptorShape = {};
  fields(r, { 1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 12: 2 }, (n, r) => {
    if (n === 1) f.name = r.string();
    else if (n === 2) f.package = r.string();
    else if (n === 3) f.dependency = push(f.dependency, r.string());
    else if (n === 4) f.messageType = push(f.messageType, message(r.sub()));
    else if (n === 6) f.service = push(f.service, service(r.sub()));
    else f.syntax = r.string();
  });
  return f;
}

function version(r: Reader): Version {
  const v: Version = {};
  fields(r, { 1: 0, 2: 0, 3: 0, 4: 2 }, (n, r) => {
    if (n === 1) v.major = r.int32();
    else if (n === 2) v.minor = r.int32();
    else if (n === 3) v.patch = r.int32();
    else v.suffix = r.string();
  });
  return v;
}

/** Decodes the parts of a CodeGeneratorRequest the reference generator reads. Throws WireError. */
export function leanDecodeRequest(buf: Uint8Array): CodeGeneratorRequest {
  const req: CodeGeneratorRequest = {};
  fields(new Reader(buf), { 1: 2, 2: 2, 3: 2, 15: 2 }, (n, r) => {
    if (n === 1) req.file_to_generate = push(req.file_to_generate, r.string());
    else if (n === 2) req.parameter = r.string();
    else if (n === 3) req.compiler_version = version(r.sub());
    else req.proto_file = push(req.proto_file, leanFileDescriptor(r.sub()));
  });
  return req;
}

const utf8e = new TextEncoder();

/** Appends `value` as a varint (a negative one as its 64-bit two's complement). */
export function varint(out: number[], value: number | bigint): void {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

/** Appends field `n` as a length-delimited field holding `bytes`. */
export function bytesField(out: number[], n: number, bytes: Uint8Array | readonly number[]): void {
  varint(out, (n << 3) | 2);
  varint(out, bytes.length);
  for (const b of bytes) out.push(b);
}

/** Encodes a response (generated_code_info is not supported: the reference generator never sets it). */
export function leanEncodeResponse(res: CodeGeneratorResponse): Uint8Array {
  const out: number[] = [];
  if (res.error !== undefined) bytesField(out, 1, utf8e.encode(res.error));
  if (res.supported_features !== undefined) {
    varint(out, BigInt(2 << 3));
    varint(out, BigInt(res.supported_features));
  }
  for (const f of res.file ?? []) {
    const body: number[] = [];
    if (f.name !== undefined) bytesField(body, 1, utf8e.encode(f.name));
    if (f.insertion_point !== undefined) bytesField(body, 2, utf8e.encode(f.insertion_point));
    if (f.content !== undefined) bytesField(body, 15, utf8e.encode(f.content));
    bytesField(out, 15, body);
  }
  return Uint8Array.from(out);
}
