import { describe, expect, it } from 'vitest';
import { encodeResponse } from '../../../../reference/plugin/codec.js';
import { joinFields, lengthDelimited, splitFields, varintField } from '../../../../reference/plugin/wire.js';
import { unknownResponseTags } from '../../../../suites/plugin/checks/response-tags.js';

/** Fields of a response under tags the schema does not define, at the top and inside a File. */
describe('response fields under unknown tags', () => {
  const text = (s: string): Uint8Array => new TextEncoder().encode(s);

  it('finds none in a response written by the schema', () => {
    const bytes = encodeResponse({ error: '', supported_features: 1, file: [{ name: 'a', insertion_point: 'p', content: 'x' }, { content: 'y' }] });
    expect(unknownResponseTags(bytes)).toEqual([]);
  });

  it('names files written under another tag, and content written under another tag of a File', () => {
    const file = joinFields([...splitFields(lengthDelimited(1, text('a.txt'))), ...splitFields(lengthDelimited(3, text('content')))]);
    const bytes = joinFields([...splitFields(lengthDelimited(15, file)), ...splitFields(lengthDelimited(14, file)), ...splitFields(varintField(7, 1))]);
    const found = unknownResponseTags(bytes);
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(/^file\[0\] field 3 \(length-delimited\)/);
    expect(found[1]).toMatch(/^CodeGeneratorResponse field 14 \(length-delimited\)/);
    expect(found[2]).toMatch(/^CodeGeneratorResponse field 7 \(varint\)/);
  });
});
