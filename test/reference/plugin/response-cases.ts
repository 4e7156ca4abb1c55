import type { CodeGeneratorResponse } from '../../../reference/plugin/types.js';

const M = '@@protoc_insertion_point';

/** Hand-picked plugin responses covering every rule of spec A, Rules for File, and its corners. */
export const fixed: { title: string; responses: CodeGeneratorResponse[]; fixture?: string }[] = [
  { title: 'one file', responses: [{ file: [{ name: 'a.txt', content: 'hello\n' }] }] },
  { title: 'nested folders and empty components', responses: [{ file: [{ name: 'x/y/z.txt', content: 'z' }, { name: 'd//c.txt', content: 'c' }] }] },
  { title: 'nameless chunks append', responses: [{ file: [{ name: 'a', content: '1' }, { content: '2' }, { name: 'b', content: '3' }, { content: '4' }] }] },
  { title: 'nameless first chunk', responses: [{ file: [{ content: 'x' }] }] },
  { title: 'nameless first chunk of a second generator', responses: [{ file: [{ name: 'a', content: '1' }] }, { file: [{ content: '2' }] }] },
  { title: 'insertion with indentation, text after the marker, empty lines, missing final newline', responses: [{ file: [
    { name: 'a', content: `l1\n \t// ${M}(P) tail\nl3\n` }, { name: 'a', insertion_point: 'P', content: 'i1\n\ni3' }, { name: 'a', insertion_point: 'P', content: 'j\n' },
  ] }] },
  { title: 'insertion continued by a nameless chunk', responses: [{ file: [{ name: 'a', content: `  ${M}(P)` }, { name: 'a', insertion_point: 'P', content: 'i' }, { content: 'more\n' }] }] },
  { title: 'empty insertion and marker at end of file without newline', responses: [{ file: [{ name: 'a', content: `x\n\t${M}(P)` }, { name: 'a', insertion_point: 'P', content: '' }] }] },
  { title: 'first of two marker lines', responses: [{ file: [{ name: 'a', content: `${M}(P)\n  ${M}(P)\n` }, { name: 'a', insertion_point: 'P', content: 'q' }] }] },
  { title: 'other whitespace is no indentation', responses: [{ file: [{ name: 'a', content: `\v\f ${M}(P)\n` }, { name: 'a', insertion_point: 'P', content: 'q' }] }] },
  { title: 'CRLF lines', responses: [{ file: [{ name: 'a', content: `x\r\n  ${M}(P)\r\n` }, { name: 'a', insertion_point: 'P', content: 'i1\r\ni2\n' }] }] },
  { title: 'insertion point missing', responses: [{ file: [{ name: 'a', content: 'x' }, { name: 'a', insertion_point: 'Q', content: 'y' }] }] },
  { title: 'insertion point name is matched whole', responses: [{ file: [{ name: 'a', content: `${M}(PP)` }, { name: 'a', insertion_point: 'P', content: 'y' }] }] },
  { title: 'insertion without a file name', responses: [{ file: [{ name: 'a', content: `${M}(P)` }, { insertion_point: 'P', content: 'y' }] }] },
  { title: 'insertion into a missing file', responses: [{ file: [{ name: 'b', insertion_point: 'P', content: 'y' }] }] },
  { title: 'second generator inserts into the first one\'s file', responses: [{ file: [{ name: 'a', content: `x\n${M}(P)\n` }] }, { file: [{ name: 'a', insertion_point: 'P', content: 'from g2\n' }] }] },
  { title: 'first generator inserts into the second one\'s file', responses: [{ file: [{ name: 'a', insertion_point: 'P', content: 'y' }] }, { file: [{ name: 'a', content: `x\n${M}(P)\n` }] }] },
  { title: 'the same file twice in one response', responses: [{ file: [{ name: 'a', content: 'x' }, { name: 'a', content: 'y' }] }] },
  { title: 'the same file from two generators', responses: [{ file: [{ name: 'a', content: 'x' }] }, { file: [{ name: 'a', content: 'y' }] }] },
  { title: 'error set: generation fails, nothing written', responses: [{ file: [{ name: 'a', content: 'x' }] }, { error: 'bad schema', file: [{ name: 'b', content: 'y' }] }] },
  { title: 'empty error is no error', responses: [{ error: '', file: [{ name: 'a', content: 'x' }] }] },
  { title: 'unknown feature bits are ignored', responses: [{ supported_features: '18446744073709551615', file: [{ name: 'a', content: 'x' }] }] },
  { title: 'proto3 optional without the feature', fixture: 'optional', responses: [{ supported_features: 0, file: [{ name: 'a', content: 'x' }] }] },
  { title: 'proto3 optional without the feature, unknown bits set', fixture: 'optional', responses: [{ supported_features: 6, file: [{ name: 'a', content: 'x' }] }] },
  { title: 'proto3 optional with the feature', fixture: 'optional', responses: [{ supported_features: 1, file: [{ name: 'a', content: 'x' }] }] },
  { title: 'proto3 optional only in an import does not matter', fixture: 'shop', responses: [{ file: [{ name: 'a', content: 'x' }] }] },
  { title: 'a name naming a folder', responses: [{ file: [{ name: 'dir/', content: 'x' }] }] },
  { title: 'a "/*" marker at the start of its line and of the file', responses: [{ file: [{ name: 'a', content: `/* ${M}(P) */\nx\n/* ${M}(Q) */\n` }, { name: 'a', insertion_point: 'P', content: 'p' }, { name: 'a', insertion_point: 'Q', content: 'q\n' }] }] },
];
