import { describe, expect, it } from 'vitest';
import {
  applyGenerators, applyResponses, checkFileName, insertAtPoint, proto3OptionalFilesToGenerate, unknownFeatureBits, validatePluginResponse,
} from '../../../reference/plugin/model/index.js';

const M = '@@protoc_insertion_point';

describe('file names (rule 1)', () => {
  it.each([
    ['a.txt', undefined], ['dir/sub/a.txt', undefined], ['a//b', undefined], ['.hidden', undefined], ['a..b', undefined],
    ['/abs', 'nameRelative'], ['C:/x', 'nameRelative'], ['dir/', 'nameRelative'],
    ['./a', 'nameDotComponents'], ['a/./b', 'nameDotComponents'], ['../a', 'nameDotComponents'], ['a/../b', 'nameDotComponents'], ['a/..', 'nameDotComponents'],
    ['a\\b', 'nameSeparator'], ['..\\a', 'nameSeparator'],
  ])('%j -> %s', (name, rule) => {
    expect(checkFileName(name)?.rule).toBe(rule);
  });
});

describe('insertion (rules 4, 5)', () => {
  it('inserts above the marker line, keeping text around the marker', () => {
    const r = insertAtPoint(`a\n// ${M}(P) tail\nz\n`, 'P', 'x\n');
    expect(r).toEqual({ ok: true, content: `a\nx\n// ${M}(P) tail\nz\n` });
  });
  it('indents every line, empty lines too, with the spaces and tabs that start the marker line', () => {
    const r = insertAtPoint(`a\n \t// ${M}(P)\n`, 'P', 'x\n\ny');
    expect(r).toEqual({ ok: true, content: `a\n \tx\n \t\n \ty\n \t// ${M}(P)\n` });
  });
  it('adds a final newline, inserts nothing for empty text, and uses the first marker line', () => {
    expect(insertAtPoint(`${M}(P)`, 'P', 'q')).toEqual({ ok: true, content: `q\n${M}(P)` });
    expect(insertAtPoint(`${M}(P)`, 'P', '')).toEqual({ ok: true, content: `${M}(P)` });
    expect(insertAtPoint(`${M}(P)\n  ${M}(P)\n`, 'P', 'q\n')).toEqual({ ok: true, content: `q\n${M}(P)\n  ${M}(P)\n` });
  });
  it('does not count other whitespace as indentation and does not match a longer point name', () => {
    expect(insertAtPoint(`\v ${M}(P)`, 'P', 'q\n')).toEqual({ ok: true, content: `q\n\v ${M}(P)` });
    expect(insertAtPoint(`${M}(PP)`, 'P', 'q').ok).toBe(false);
  });
  it('honours another marker prefix', () => {
    expect(insertAtPoint('@@acme_insertion_point(P)\n', 'P', 'q\n', '@@acme_insertion_point')).toEqual({ ok: true, content: 'q\n@@acme_insertion_point(P)\n' });
  });
});

describe('applying responses', () => {
  it('appends nameless chunks to the previous file (rule 2) and rejects one that comes first', () => {
    expect(applyResponses([{ file: [{ name: 'a', content: '1' }, { content: '2' }, { content: '3' }] }])).toEqual({ ok: true, tree: new Map([['a', '123']]) });
    const r = applyResponses([{ file: [{ content: 'x' }] }]);
    expect(r.ok === false && r.error.rule).toBe('PLUGIN-COMPILER-APPEND-FIRST-REJECTED');
  });
  it('treats "previous file" per response: a second generator cannot start with a nameless chunk', () => {
    const r = applyResponses([{ file: [{ name: 'a', content: '1' }] }, { file: [{ content: '2' }] }]);
    expect(r.ok === false && r.error.rule).toBe('PLUGIN-COMPILER-APPEND-FIRST-REJECTED');
  });
  it('applies insertions in order, across generators in command-line order (rules 3, 4, 6)', () => {
    const r = applyResponses([
      { file: [{ name: 'a', content: `x\n  ${M}(P)\n` }, { name: 'a', insertion_point: 'P', content: 'one\n' }] },
      { file: [{ name: 'a', insertion_point: 'P', content: 'two' }, { content: '-more\n' }] },
    ]);
    expect(r).toEqual({ ok: true, tree: new Map([['a', `x\n  one\n  two-more\n  ${M}(P)\n`]]) });
  });
  it('rejects an insertion into a file generated later, into a missing file, at a missing point, or without a name', () => {
    const later = applyResponses([{ file: [{ name: 'a', insertion_point: 'P', content: 'x' }] }, { file: [{ name: 'a', content: `${M}(P)` }] }]);
    expect(later.ok === false && later.error.rule).toBe('PLUGIN-COMPILER-INSERTION-EXISTING-FILE');
    const noPoint = applyResponses([{ file: [{ name: 'a', content: 'x' }, { name: 'a', insertion_point: 'Q', content: 'y' }] }]);
    expect(noPoint.ok === false && noPoint.error.rule).toBe('PLUGIN-COMPILER-INSERTION-MARKER-REQUIRED');
    const noName = applyResponses([{ file: [{ name: 'a', content: `${M}(P)` }, { insertion_point: 'P', content: 'y' }] }]);
    expect(noName.ok === false && noName.error).toMatchObject({ rule: 'PLUGIN-COMPILER-INSERTION-EXISTING-FILE', key: 'insertionName', fileIndex: 1 });
  });
  it('keeps output directories apart', () => {
    const r = applyGenerators([
      { generator: 'x', outDir: 'o1', response: { file: [{ name: 'a', content: `${M}(P)` }] } },
      { generator: 'y', outDir: 'o2', response: { file: [{ name: 'a', insertion_point: 'P', content: 'y' }] } },
    ]);
    expect(r.ok === false && r.error).toMatchObject({ generator: 'y', key: 'insertionTarget' });
  });
  it('refuses an insertion into a file an earlier run left on disk, but not into one this invocation writes again', () => {
    const leftovers = new Map([['out', new Set(['a'])]]);
    const stale = applyGenerators([{ generator: 'g', outDir: 'out', response: { file: [{ name: 'a', insertion_point: 'P', content: 'y' }] } }], { leftovers });
    expect(stale.ok === false && stale.error).toMatchObject({ rule: 'PLUGIN-COMPILER-INSERTION-SAME-INVOCATION', key: 'insertionStale', fileIndex: 0 });
    const elsewhere = applyGenerators([{ generator: 'g', outDir: 'other', response: { file: [{ name: 'a', insertion_point: 'P', content: 'y' }] } }], { leftovers });
    expect(elsewhere.ok === false && elsewhere.error.key).toBe('insertionTarget');
    const fresh = applyGenerators([{ generator: 'g', outDir: 'out', response: { file: [{ name: 'a', content: `${M}(P)` }, { name: 'a', insertion_point: 'P', content: 'y' }] } }], { leftovers });
    expect(fresh.ok).toBe(true);
  });
  it('fails on a non-empty error, not on an empty one, and on a duplicate name', () => {
    const failed = applyResponses([{ file: [{ name: 'a', content: 'x' }] }, { error: 'bad schema', file: [{ name: 'b' }] }]);
    expect(failed.ok === false && failed.error).toMatchObject({ rule: 'PLUGIN-COMPILER-ERROR-FAILS', generator: 'g2', message: 'bad schema' });
    expect(applyResponses([{ error: '', file: [{ name: 'a', content: 'x' }] }]).ok).toBe(true);
    const dup = applyResponses([{ file: [{ name: 'a' }] }, { file: [{ name: 'a' }] }]);
    expect(dup.ok === false && dup.error.rule).toBe('PLUGIN-COMPILER-NAME-ONCE');
  });
  it('refuses output for proto3 optional files unless the generator declares FEATURE_PROTO3_OPTIONAL; unknown bits do not matter', () => {
    const opts = { proto3OptionalFiles: ['a.proto'] };
    const r = applyResponses([{ supported_features: 6, file: [{ name: 'a', content: 'x' }] }], opts);
    expect(r.ok === false && r.error.rule).toBe('PLUGIN-COMPILER-PROTO3-OPTIONAL-GATE');
    expect(applyResponses([{ supported_features: '18446744073709551615', file: [{ name: 'a' }] }], opts).ok).toBe(true);
  });
  it('rejects every invalid name with the compiler-side rule', () => {
    for (const [name, rule] of [['/a', 'PLUGIN-COMPILER-NAME-RELATIVE'], ['../a', 'PLUGIN-COMPILER-NAME-NO-DOT-COMPONENTS'], ['a\\b', 'PLUGIN-COMPILER-NAME-SLASH-SEPARATOR']]) {
      const r = applyResponses([{ file: [{ name, content: 'x' }] }]);
      expect(r.ok === false && r.error.rule).toBe(rule);
    }
  });
});

describe('plugin-side validation', () => {
  it('reports every broken plugin obligation once, with the plugin-side requirement', () => {
    const v = validatePluginResponse({
      supported_features: 3,
      file: [{ content: 'x' }, { name: '/a' }, { name: 'b' }, { name: 'b' }, { insertion_point: 'P' }, { name: 'a\\b' }, { name: './c' }],
    });
    expect(v.map((x) => [x.requirement, x.fileIndex])).toEqual([
      ['PLUGIN-FEATURES-KNOWN-BITS', undefined],
      ['PLUGIN-FILE-APPEND-HAS-PREVIOUS', 0],
      ['PLUGIN-FILE-NAME-RELATIVE', 1],
      ['PLUGIN-FILE-NAME-ONCE', 3],
      ['PLUGIN-INSERTION-NAMES-FILE', 4],
      ['PLUGIN-FILE-NAME-SLASH-SEPARATOR', 5],
      ['PLUGIN-FILE-NAME-NO-DOT-COMPONENTS', 6],
    ]);
  });
  it('accepts an insertion into a file an earlier generator of the invocation made, and none into a file nobody made', () => {
    const insertion = { file: [{ name: 'other.go', insertion_point: 'imports', content: 'x' }] };
    const existing = new Map([['other.go', 'package x\n// @@protoc_insertion_point(imports)\n']]);
    expect(validatePluginResponse(insertion, undefined, { existing })).toEqual([]);
    expect(validatePluginResponse(insertion).map((v) => [v.requirement, v.fileIndex])).toEqual([['PLUGIN-INSERTION-EXISTING-FILE', 0]]);
  });
  it('wants the insertion after the file it goes into, at a point marked in the form @@<compiler>_insertion_point(NAME)', () => {
    const made = { name: 'a.txt', content: 'head\n  // @@protoc_insertion_point(p)\n' };
    const into = { name: 'a.txt', insertion_point: 'p', content: 'x\n' };
    expect(validatePluginResponse({ file: [made, into, { content: 'more\n' }, into] })).toEqual([]);
    expect(validatePluginResponse({ file: [into, made] }).map((v) => v.requirement)).toEqual(['PLUGIN-INSERTION-EXISTING-FILE']);
    const badForm = { name: 'a.txt', content: '// @@protoc_insertion_point: p\n' };
    expect(validatePluginResponse({ file: [badForm, into] }).map((v) => [v.requirement, v.fileIndex])).toEqual([['PLUGIN-INSERTION-POINT-MARKED', 1]]);
    // a marker that a nameless chunk adds to the file counts
    expect(validatePluginResponse({ file: [{ name: 'a.txt', content: 'head\n' }, { content: '@@protoc_insertion_point(p)\n' }, into] })).toEqual([]);
    expect(validatePluginResponse({ file: [made, { ...into, insertion_point: 'q' }] }).map((v) => v.requirement)).toEqual(['PLUGIN-INSERTION-POINT-MARKED']);
    expect(validatePluginResponse({ file: [{ name: 'a.txt', content: '@@gen_insertion_point(p)\n' }, into] }, undefined, { markerPrefix: '@@gen_insertion_point' })).toEqual([]);
  });
  it('ignores the files of a response with error set, but reports that it carries any', () => {
    expect(validatePluginResponse({ error: 'e', file: [{ name: '/abs' }] }).map((v) => v.requirement)).toEqual(['PLUGIN-ERROR-ONLY-ON-FAILURE']);
    expect(validatePluginResponse({ error: 'e' })).toEqual([]);
    expect(validatePluginResponse({ error: '', file: [{ name: 'a' }] })).toEqual([]);
  });
  it('asks for FEATURE_PROTO3_OPTIONAL only when a file to generate has a proto3 optional field', () => {
    const req = {
      file_to_generate: ['b.proto'],
      proto_file: [
        { name: 'a.proto', messageType: [{ name: 'A', field: [{ name: 'x', proto3Optional: true }] }] },
        { name: 'b.proto', messageType: [{ name: 'B', nestedType: [{ name: 'N', field: [{ name: 'y', proto3Optional: true }] }] }] },
      ],
    };
    expect(proto3OptionalFilesToGenerate(req)).toEqual(['b.proto']);
    expect(validatePluginResponse({ file: [{ name: 'b' }] }, req).map((v) => v.requirement)).toEqual(['PLUGIN-FEATURE-PROTO3-OPTIONAL']);
    expect(validatePluginResponse({ supported_features: 1, file: [{ name: 'b' }] }, req)).toEqual([]);
    expect(unknownFeatureBits(1)).toBe(0n);
  });
});
