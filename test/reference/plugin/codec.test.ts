import { describe, expect, it } from 'vitest';
import {
  decodeRequest, decodeResponse, encodeDescriptorSet, decodeDescriptorSet, encodeRequest, encodeResponse, pluginCodecs,
} from '../../../reference/plugin/codec.js';
import { SpecgateError } from '../../../src/errors.js';

describe('plugin codec', () => {
  it('round-trips a response, keeping an explicitly empty error and a 64-bit feature set', () => {
    const bytes = encodeResponse({ error: '', supported_features: 1n << 63n, file: [{ name: 'a', content: 'x' }, { content: '' }] });
    expect(decodeResponse(bytes)).toEqual({
      error: '', supported_features: '9223372036854775808', file: [{ name: 'a', content: 'x' }, { content: '' }],
    });
  });

  it('decodes small feature sets as numbers', () => {
    expect(decodeResponse(encodeResponse({ supported_features: 1 }))).toEqual({ supported_features: 1 });
  });

  it('accepts snake_case or camelCase descriptor keys and decodes to the camelCase descriptor shape', () => {
    const bytes = encodeRequest({
      file_to_generate: ['a.proto'],
      proto_file: [{
        name: 'a.proto', syntax: 'proto3',
        message_type: [{ name: 'A', field: [{ name: 'x', number: 1, label: 1, type: 5, proto3_optional: true, oneofIndex: 0 }] }],
      }],
      compiler_version: { major: 3, minor: 21, patch: 12, suffix: '' },
    });
    expect(decodeRequest(bytes)).toEqual({
      file_to_generate: ['a.proto'],
      proto_file: [{
        name: 'a.proto', syntax: 'proto3',
        messageType: [{ name: 'A', field: [{ name: 'x', number: 1, label: 1, type: 5, proto3Optional: true, oneofIndex: 0 }] }],
      }],
      compiler_version: { major: 3, minor: 21, patch: 12, suffix: '' },
    });
  });

  it('rejects a key that is no field, naming the path', () => {
    expect(() => encodeRequest({ file_to_generate: ['a'], proto_file: [{ nmae: 'x' }] } as never)).toThrow(/proto_file\[0\]\.nmae/);
    try {
      pluginCodecs['CodeGeneratorResponse']?.encode({ files: [] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SpecgateError);
      expect((e as SpecgateError).code).toBe('SG_SUITE_SCHEMA');
    }
  });

  it('fails to decode malformed bytes with SG_TARGET_PROTOCOL', () => {
    expect(() => decodeRequest(Uint8Array.from([0x0f, 0x0f]))).toThrow(SpecgateError);
    expect(() => decodeResponse(Uint8Array.from([0x0a, 0x05, 0x41]))).toThrow(/not a valid CodeGeneratorResponse/);
  });

  it('ignores unknown fields when decoding', () => {
    const bytes = encodeResponse({ error: 'e' });
    const withUnknown = Uint8Array.from([...bytes, 0x98, 0x06, 0x01]); // field 99, varint 1
    expect(decodeResponse(withUnknown)).toEqual({ error: 'e' });
  });

  it('round-trips a descriptor set', () => {
    const set = { file: [{ name: 'a.proto', package: 'p', dependency: ['b.proto'], messageType: [{ name: 'M' }] }] };
    expect(decodeDescriptorSet(encodeDescriptorSet(set))).toEqual(set);
  });
});
