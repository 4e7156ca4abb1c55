import { describe, expect, it } from 'vitest';
import { decodeRequest, encodeRequest } from '../../../reference/plugin/codec.js';
import { appendUnknownFields, checkWireTypes, fieldOrder, REQUEST_WIRE_TYPES, reorderRequest, splitFields, varint } from '../../../reference/plugin/wire.js';

const req = {
  file_to_generate: ['a.proto', 'b.proto'],
  parameter: 'p',
  proto_file: [{ name: 'a.proto' }, { name: 'b.proto', dependency: ['a.proto'] }, { name: 'c.proto' }],
  compiler_version: { major: 3 },
};
const bytes = encodeRequest(req);

describe('wire surgery', () => {
  it('encodes varints, 64-bit and negative values included', () => {
    expect([...varint(300)]).toEqual([0xac, 0x02]);
    expect(varint(-1n).length).toBe(10);
    expect(varint((1n << 64n) - 1n).length).toBe(10);
  });

  it('re-orders fields without changing the meaning or the order of repeated fields', () => {
    expect(fieldOrder(bytes)).toEqual([1, 1, 2, 3, 15, 15, 15]);
    expect(fieldOrder(reorderRequest(bytes, 'proto-file-first'))).toEqual([15, 15, 15, 1, 1, 2, 3]);
    expect(fieldOrder(reorderRequest(bytes, 'interleaved'))).toEqual([15, 1, 15, 1, 15, 2, 3]);
    expect(fieldOrder(reorderRequest(bytes, 'reversed'))).toEqual([15, 15, 15, 3, 2, 1, 1]);
    for (const order of ['proto-file-first', 'interleaved', 'reversed'] as const) {
      expect(decodeRequest(reorderRequest(bytes, order))).toEqual(decodeRequest(bytes));
    }
  });

  it('appends unknown fields that decoders skip', () => {
    const more = appendUnknownFields(bytes);
    expect(splitFields(more).slice(-2).map((f) => [f.field, f.wireType])).toEqual([[1999, 2], [2000, 0]]);
    expect(decodeRequest(more)).toEqual(decodeRequest(bytes));
  });

  it('refuses malformed input and known fields with the wrong wire type', () => {
    expect(() => splitFields(Uint8Array.from([0x0a, 0x05, 0x61]))).toThrow(/runs past the end/);
    expect(() => splitFields(Uint8Array.from([0x0f]))).toThrow(/wire type 7/);
    expect(() => checkWireTypes(Uint8Array.from([0x08, 0x01]), REQUEST_WIRE_TYPES)).toThrow(/wire type 0, expected 2/);
    expect(() => checkWireTypes(bytes, REQUEST_WIRE_TYPES)).not.toThrow();
  });
});
