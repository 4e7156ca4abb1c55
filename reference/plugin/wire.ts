import { SpecgateError } from '../../src/errors.js';

/**
 * Wire-level surgery on encoded messages, for the checks that a plugin does not depend on field
 * order and ignores unknown fields (spec A, CodeGeneratorRequest: "the wire format does not
 * guarantee field order"). Works on the top level of a message only; field payloads are kept
 * byte for byte.
 */

/** One top-level field occurrence: its number, wire type and the exact bytes (tag included). */
export interface WireField {
  field: number;
  wireType: number;
  bytes: Uint8Array;
}

function readVarint(buf: Uint8Array, pos: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  for (let i = pos; i < buf.length && i < pos + 10; i++) {
    const b = buf[i] as number;
    value |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return { value, next: i + 1 };
    shift += 7n;
  }
  throw new SpecgateError('SG_TARGET_PROTOCOL', `truncated or overlong varint at byte ${pos}`);
}

/** Encodes a non-negative integer as a varint. */
export function varint(value: number | bigint): Uint8Array {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Splits an encoded message into its top-level fields, in wire order. Throws on malformed input. */
export function splitFields(buf: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const start = pos;
    const tag = readVarint(buf, pos);
    pos = tag.next;
    const field = Number(tag.value >> 3n);
    const wireType = Number(tag.value & 7n);
    if (field === 0) throw new SpecgateError('SG_TARGET_PROTOCOL', `field number 0 at byte ${start}`);
    switch (wireType) {
      case 0:
        pos = readVarint(buf, pos).next;
        break;
      case 1:
        pos += 8;
        break;
      case 2: {
        const len = readVarint(buf, pos);
        pos = len.next + Number(len.value);
        break;
      }
      case 5:
        pos += 4;
        break;
      default:
        throw new SpecgateError('SG_TARGET_PROTOCOL', `unsupported wire type ${wireType} at byte ${start}`);
    }
    if (pos > buf.length) throw new SpecgateError('SG_TARGET_PROTOCOL', `field ${field} at byte ${start} runs past the end`);
    fields.push({ field, wireType, bytes: buf.subarray(start, pos) });
  }
  return fields;
}

/** Joins fields back into one message. */
export function joinFields(fields: readonly WireField[]): Uint8Array {
  return concat(fields.map((f) => f.bytes));
}

/** A length-delimited field (`field`, wire type 2) holding `payload`. */
export function lengthDelimited(field: number, payload: Uint8Array): Uint8Array {
  return concat([varint((field << 3) | 2), varint(payload.length), payload]);
}

/** A varint field (`field`, wire type 0). */
export function varintField(field: number, value: number | bigint): Uint8Array {
  return concat([varint(field << 3), varint(value)]);
}

/**
 * Appends unknown fields to an encoded message: by default a length-delimited field 1999 and a
 * varint field 2000, numbers no version of the plugin messages uses.
 */
export function appendUnknownFields(
  buf: Uint8Array,
  extra: readonly Uint8Array[] = [lengthDelimited(1999, new TextEncoder().encode('unknown to this spec')), varintField(2000, 42)],
): Uint8Array {
  return concat([buf, ...extra]);
}

/** How to re-order a request's top-level fields. */
export type FieldOrder = 'proto-file-first' | 'interleaved' | 'reversed';

/** Field number of `CodeGeneratorRequest.proto_file`. */
export const PROTO_FILE_FIELD = 15;

/**
 * Re-orders the top-level fields of an encoded CodeGeneratorRequest without changing its meaning:
 * occurrences of the same field number keep their relative order (repeated fields stay in
 * order), only fields with different numbers are moved past each other.
 * - `proto-file-first`: every `proto_file` before every other field;
 * - `interleaved`: `proto_file` entries alternate with the other fields;
 * - `reversed`: field groups in descending field-number order (proto_file first, then
 *   compiler_version, parameter, file_to_generate).
 */
export function reorderRequest(buf: Uint8Array, order: FieldOrder): Uint8Array {
  const fields = splitFields(buf);
  const protoFiles = fields.filter((f) => f.field === PROTO_FILE_FIELD);
  const others = fields.filter((f) => f.field !== PROTO_FILE_FIELD);
  switch (order) {
    case 'proto-file-first':
      return joinFields([...protoFiles, ...others]);
    case 'interleaved': {
      const out: WireField[] = [];
      const n = Math.max(protoFiles.length, others.length);
      for (let i = 0; i < n; i++) {
        const p = protoFiles[i];
        const o = others[i];
        if (p) out.push(p);
        if (o) out.push(o);
      }
      return joinFields(out);
    }
    case 'reversed': {
      const numbers = [...new Set(fields.map((f) => f.field))].sort((a, b) => b - a);
      return joinFields(numbers.flatMap((n) => fields.filter((f) => f.field === n)));
    }
  }
}

/** Field numbers in wire order (repeats kept), for asserting on what a compiler wrote. */
export function fieldOrder(buf: Uint8Array): number[] {
  return splitFields(buf).map((f) => f.field);
}

/** Wire types of the CodeGeneratorRequest fields (all length-delimited). */
export const REQUEST_WIRE_TYPES: Readonly<Record<number, number>> = { 1: 2, 2: 2, 3: 2, 15: 2 };

/**
 * Checks the top level of a message: well-formed fields, and known fields with their declared
 * wire type. protobufjs' decoders trust the schema's wire types, so without this some garbage
 * would decode "successfully" into nonsense instead of being reported as unparseable.
 */
export function checkWireTypes(buf: Uint8Array, expected: Readonly<Record<number, number>>): void {
  for (const f of splitFields(buf)) {
    const want = expected[f.field];
    if (want !== undefined && want !== f.wireType) {
      throw new SpecgateError('SG_TARGET_PROTOCOL', `field ${f.field} has wire type ${f.wireType}, expected ${want}`);
    }
  }
}
