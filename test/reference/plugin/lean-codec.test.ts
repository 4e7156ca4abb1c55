import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRequest, encodeRequest, encodeResponse } from '../../../reference/plugin/codec.js';
import { generate } from '../../../reference/plugin/generator.js';
import { leanDecodeRequest, leanEncodeResponse, WireError } from '../../../reference/plugin/lean-codec.js';
import type { CodeGeneratorRequest, DescriptorShape, FileDescriptorShape } from '../../../reference/plugin/types.js';
import { appendUnknownFields, reorderRequest } from '../../../reference/plugin/wire.js';
import { FIXTURES, loadFixture, requestFor } from '../../../suites/plugin/checks/fixtures.js';

/** The parts of a request the lean codec reads, taken from the full decode. */
function project(req: CodeGeneratorRequest): CodeGeneratorRequest {
  const msg = (m: DescriptorShape): DescriptorShape => ({
    ...(m.name !== undefined ? { name: m.name } : {}),
    ...(m.field ? { field: m.field.map((f) => Object.fromEntries(Object.entries(f).filter(([k]) => ['name', 'number', 'label', 'type', 'typeName', 'proto3Optional'].includes(k)))) } : {}),
    ...(m.nestedType ? { nestedType: m.nestedType.map(msg) } : {}),
  });
  const file = (f: FileDescriptorShape): FileDescriptorShape => {
    const out: FileDescriptorShape = {};
    for (const k of ['name', 'package', 'dependency', 'syntax'] as const) if (f[k] !== undefined) Object.assign(out, { [k]: f[k] });
    if (f.messageType) out.messageType = f.messageType.map(msg);
    if (f.service) out.service = f.service.map((s) => ({ ...(s.name !== undefined ? { name: s.name } : {}), ...(s.method ? { method: s.method.map((m) => ({ name: m.name, inputType: m.inputType, outputType: m.outputType })) } : {}) }));
    return out;
  };
  return { ...req, ...(req.proto_file ? { proto_file: req.proto_file.map(file) } : {}) };
}

describe('lean codec (reference plugin)', () => {
  it.each(Object.keys(FIXTURES))('decodes fixture %s as the full codec does, in any field order and with unknown fields', (name) => {
    const bytes = encodeRequest(requestFor(loadFixture(name), { parameter: 'p=1' }));
    const expected = project(decodeRequest(bytes));
    expect(leanDecodeRequest(bytes)).toEqual(expected);
    expect(leanDecodeRequest(reorderRequest(bytes, 'interleaved'))).toEqual(expected);
    expect(leanDecodeRequest(appendUnknownFields(bytes))).toEqual(expected);
  });

  it('encodes the generator\'s responses byte for byte as the full codec', () => {
    for (const name of Object.keys(FIXTURES)) {
      for (const parameter of [undefined, 'chunk_lines=3', 'fail=x', 'insert=a.txt@P', 'bogus']) {
        const res = generate(requestFor(loadFixture(name), parameter === undefined ? {} : { parameter }));
        expect(Buffer.from(leanEncodeResponse(res))).toEqual(Buffer.from(encodeResponse(res)));
      }
    }
  });

  it('encodes arbitrary responses as the full codec', () => {
    const file = fc.record({ name: fc.string(), insertion_point: fc.string(), content: fc.string({ unit: 'grapheme' }) }, { requiredKeys: [] });
    const res = fc.record({ error: fc.string(), supported_features: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), file: fc.array(file, { maxLength: 4 }) }, { requiredKeys: [] });
    fc.assert(fc.property(res, (r) => {
      expect(Buffer.from(leanEncodeResponse(r))).toEqual(Buffer.from(encodeResponse(r)));
    }), { numRuns: 200 });
  });

  it.each([
    ['invalid wire type', [0x0f, 0x0f]],
    ['truncated length', [0x0a, 0x05, 0x61]],
    ['known field with the wrong wire type', [0x08, 0x01]],
    ['overlong varint', [0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
    ['field number 0', [0x02, 0x00]],
    ['unclosed group', [0xa3, 0x06]],
  ])('rejects %s', (_title, bytes) => {
    expect(() => leanDecodeRequest(Uint8Array.from(bytes))).toThrow(WireError);
  });
});
