import { describe, expect, it } from 'vitest';
import { decodeRequest, decodeResponse, encodeDescriptorSet, encodeRequest, encodeResponse } from '../../../reference/plugin/codec.js';
import { fieldOrder } from '../../../reference/plugin/wire.js';
import { decodeDriverResponse, encodeDriverRequest, rawDescriptor, readDescriptorSet } from '../../../reference/plugin/driver-codec.js';
import { annotationsOf, mergeCodeInfo, parseCodeInfo, printCodeInfo, sameCodeInfo } from '../../../reference/plugin/model/index.js';
import type { CodeGeneratorResponse } from '../../../reference/plugin/types.js';
import { FIXTURES, loadFixture, requestFor } from '../../../suites/plugin/checks/fixtures.js';
import { responseWithin } from '../../../suites/plugin/checks/stray-output.js';

/**
 * The reference driver's own codec (no protobufjs) against the full codec, the merge of
 * generated_code_info into a file's metadata, and finding a response among other output. All
 * in process: nothing is run.
 */

describe('driver codec', () => {
  it.each(Object.keys(FIXTURES))('passes the descriptors of fixture %s on byte for byte: the full codec reads the same request', (name) => {
    const fixture = loadFixture(name);
    const files = readDescriptorSet(encodeDescriptorSet(fixture.set));
    expect(files.map((f) => f.name)).toEqual((fixture.set.file ?? []).map((f) => f.name));
    expect(files.every((f) => rawDescriptor(f) !== undefined)).toBe(true);
    const want = requestFor(fixture, { parameter: 'a=1' });
    const bytes = encodeDriverRequest({ ...want, proto_file: files });
    expect(decodeRequest(bytes)).toEqual(decodeRequest(encodeRequest(want)));
    expect(fieldOrder(bytes).filter((n, i, all) => all.indexOf(n) === i)).toEqual([1, 2, 3, 15]);
  });

  it('refuses to write a descriptor it did not read (a copy has no bytes to pass on)', () => {
    const [file] = readDescriptorSet(encodeDescriptorSet(loadFixture('plain').set));
    expect(() => encodeDriverRequest({ proto_file: [{ ...file }] })).toThrow(/was not read from the descriptor set/);
  });

  const responses: CodeGeneratorResponse[] = [
    {},
    { error: 'bad schema' },
    { supported_features: 3, file: [{ name: 'a.txt', content: 'x\n' }, { content: 'more' }, { name: 'a.txt', insertion_point: 'p', content: 'é\n' }] },
    { supported_features: '18446744073709551615', file: [{ name: 'b', insertion_point: 'q', content: 'y', generated_code_info: { annotation: [{ path: [4, 0], source_file: 's.proto', begin: 1, end: 300 }] } }] },
  ];
  it.each(responses.map((r, i) => [i, r] as const))('decodes response %i as the full codec does', (_i, res) => {
    const bytes = encodeResponse(res);
    const lean = decodeDriverResponse(bytes);
    const full = decodeResponse(bytes);
    expect({ ...lean, file: lean.file?.map((f) => ({ ...f, generated_code_info: annotationsOf(f.generated_code_info) })) })
      .toEqual({ ...full, file: full.file?.map((f) => ({ ...f, generated_code_info: annotationsOf(f.generated_code_info) })) });
  });

  it('refuses output that is no response, and skips fields it does not know', () => {
    expect(() => decodeDriverResponse(Uint8Array.from([0x0a, 0x09, 0x61]))).toThrow();
    expect(() => decodeDriverResponse(new TextEncoder().encode('generated 1 file\n'))).toThrow();
    expect(decodeDriverResponse(Uint8Array.from([0x18, 0xe6, 0x07, 0x10, 0x01]))).toEqual({ supported_features: 1 });
  });
});

describe('generated_code_info merged into a file\'s metadata', () => {
  const meta = 'annotation {\n  path: 4\n  path: 0\n  source_file: "b.proto"\n  begin: 0\n  end: 4\n}\nannotation {\n  path: 4\n  path: 1\n  begin: 38\n  end: 42\n}\n';

  it('moves inserted annotations to where the indented text landed and later ones down (what protoc 3.21 writes)', () => {
    // "head\n" then "  // marker" at 5: two inserted lines of 5 characters, each indented by 2
    const merged = mergeCodeInfo(parseCodeInfo(meta) ?? [], [{ path: [7], begin: 5, end: 9 }], { lineStart: 5, indent: '  ', text: 'ins1\nins2\n' });
    expect(merged.map((a) => [a.path, a.begin, a.end])).toEqual([[[4, 0], 0, 4], [[7], 14, 18], [[4, 1], 52, 56]]);
  });

  it('reads the text and the wire format, prints the text format, and compares by annotations', () => {
    const wire = String.fromCharCode(0x0a, 0x07, 0x0a, 0x01, 0x01, 0x18, 0x05, 0x20, 0x07);
    expect(parseCodeInfo(wire)).toEqual([{ path: [1], begin: 5, end: 7 }]);
    expect(sameCodeInfo(wire, 'annotation { path: 1 begin: 5 end: 7 }')).toBe(true);
    expect(sameCodeInfo(wire, 'annotation { path: 1 begin: 5 end: 8 }')).toBe(false);
    expect(parseCodeInfo(printCodeInfo(parseCodeInfo(meta) ?? []))).toEqual(parseCodeInfo(meta));
    expect(parseCodeInfo('annotation { no_such_field: 1 }')).toBeUndefined();
  });
});

describe('a response among other output on stdout', () => {
  const res = encodeResponse({ file: [{ name: 'a.txt', content: 'x\n' }] });
  const join = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
  const text = (s: string): Uint8Array => new TextEncoder().encode(s);

  it('is found after lines of text and before trailing bytes', () => {
    expect(responseWithin(join(text('generating a.txt\nstill going\n'), res))).toMatchObject({ stray: { position: 'before', bytes: 29 }, response: { file: [{ name: 'a.txt' }] } });
    expect(responseWithin(join(res, text('done\n')))).toMatchObject({ stray: { position: 'after', bytes: 5, head: 'done\n' } });
  });

  it('is not made up from output that holds none', () => {
    expect(responseWithin(text('generated 1 file: all good\n'))).toBeUndefined();
    expect(responseWithin(Uint8Array.from([0x0a, 0x09, 0x61]))).toBeUndefined();
  });
});
