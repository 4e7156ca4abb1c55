import { describe, expect, it } from 'vitest';
import { enumValueConflictKeys, fieldConflictKey, mapEntryName, outputPathsClash, syntheticOneofName, toJsonName, uniqueName } from '../../../generators/plugin/naming.js';

// Expected values are what protoc 3.21 wrote into a CodeGeneratorRequest for the same names.
describe('compiler naming rules', () => {
  it('derives json_name as protoc does', () => {
    expect(toJsonName('opt_field')).toBe('optField');
    expect(toJsonName('_lead')).toBe('Lead');
    expect(toJsonName('b_c')).toBe('bC');
    expect(toJsonName('foo__bar')).toBe('fooBar');
    expect(toJsonName('item_1')).toBe('item1');
    expect(toJsonName('Already')).toBe('Already');
  });

  it('names map entries as protoc does', () => {
    expect(mapEntryName('the_map')).toBe('TheMapEntry');
    expect(mapEntryName('_struct_node89')).toBe('StructNode89Entry');
    expect(mapEntryName('x')).toBe('XEntry');
  });

  it('names synthetic oneofs as protoc does, avoiding taken names', () => {
    expect(syntheticOneofName('opt_field', () => false)).toBe('_opt_field');
    const taken = new Set(['_under']);
    expect(syntheticOneofName('_under', (n) => taken.has(n))).toBe('X_under');
  });

  it('treats field names that differ only in case and underscores as clashing', () => {
    expect(fieldConflictKey('foo_bar')).toBe(fieldConflictKey('fooBar'));
    expect(fieldConflictKey('Foobar')).toBe(fieldConflictKey('foo_bar'));
  });

  it('finds enum value clashes after stripping the enum name prefix', () => {
    const a = enumValueConflictKeys('E', 'E_A');
    const b = enumValueConflictKeys('E', 'A');
    expect(a.some((k) => b.includes(k))).toBe(true);
    expect(enumValueConflictKeys('Color', 'COLOR')).toEqual(['color']);
  });

  it('makes names unique deterministically', () => {
    const used = new Set(['Item', 'Item2']);
    expect(uniqueName('Item', (c) => !used.has(c))).toBe('Item3');
    expect(uniqueName('Other', (c) => !used.has(c))).toBe('Other');
  });

  it('tells output names that need one path as a file and as a folder', () => {
    expect(outputPathsClash('..x/common', '..x/common/main.pb.go')).toBe(true);
    expect(outputPathsClash('gen/a/b.txt', 'gen/a')).toBe(true);
    // the same name is a file named twice (a rule of its own), a shared prefix is no clash
    expect(outputPathsClash('gen/a', 'gen/a')).toBe(false);
    expect(outputPathsClash('gen/a', 'gen/ab/c.txt')).toBe(false);
    expect(outputPathsClash('gen/a.txt', 'gen/a.txt2')).toBe(false);
  });
});
