import type { DescriptorValue, FieldDescriptorValue, FileDescriptorSetValue, FileDescriptorValue } from '../../../generators/plugin/descriptor-types.js';

/** Names of the schema features a descriptor set can show; the coverage test wants each one. */
export type SetFeature =
  | 'proto2-file' | 'proto3-file' | 'no-package' | 'package' | 'shared-package' | 'import' | 'public-import'
  | 'go-package' | 'nested-depth-2' | 'nested-enum' | 'oneof-2-fields' | 'map-message-value' | 'map-enum-value'
  | 'proto3-optional' | 'file-extension' | 'message-extension' | 'extension-range' | 'extension-range-to-max'
  | 'reserved-range' | 'reserved-name' | 'enum-alias' | 'enum-reserved-range' | 'enum-negative-value'
  | 'client-streaming' | 'server-streaming' | 'required' | 'default-value' | 'packed' | 'cross-file-type'
  | 'field-number-above-19999' | 'field-number-max' | 'keyword-field-name' | 'leading-underscore-field';

const KEYWORDS = new Set(['class', 'default', 'string', 'package', 'import', 'public', 'new', 'this', 'self', 'func', 'in', 'of']);

/** The features present in one set. */
export function setFeatures(set: FileDescriptorSetValue): Set<SetFeature> {
  const out = new Set<SetFeature>();
  const packages = new Map<string, number>();
  for (const file of set.file) {
    out.add(file.syntax === 'proto3' ? 'proto3-file' : 'proto2-file');
    if (file.package === undefined) out.add('no-package');
    else {
      out.add('package');
      packages.set(file.package, (packages.get(file.package) ?? 0) + 1);
    }
    if ((file.dependency ?? []).length > 0) out.add('import');
    if ((file.publicDependency ?? []).length > 0) out.add('public-import');
    if (file.options?.goPackage !== undefined) out.add('go-package');
    if ((file.extension ?? []).length > 0) out.add('file-extension');
    for (const s of file.service ?? []) {
      for (const m of s.method ?? []) {
        if (m.clientStreaming) out.add('client-streaming');
        if (m.serverStreaming) out.add('server-streaming');
      }
    }
    for (const e of file.enumType ?? []) enumFeatures(e, out);
    for (const m of file.messageType ?? []) messageFeatures(m, 0, file, out);
    for (const f of file.extension ?? []) fieldFeatures(f, file, out);
  }
  if ([...packages.values()].some((n) => n > 1)) out.add('shared-package');
  return out;
}

function enumFeatures(e: NonNullable<FileDescriptorValue['enumType']>[number], out: Set<SetFeature>): void {
  if (e.options?.allowAlias) out.add('enum-alias');
  if ((e.reservedRange ?? []).length > 0) out.add('enum-reserved-range');
  if (e.value.some((v) => v.number < 0)) out.add('enum-negative-value');
}

function messageFeatures(m: DescriptorValue, depth: number, file: FileDescriptorValue, out: Set<SetFeature>): void {
  if (depth >= 2) out.add('nested-depth-2');
  if (depth >= 1 && !m.options?.mapEntry && (m.enumType ?? []).length > 0) out.add('nested-enum');
  if ((m.extensionRange ?? []).length > 0) out.add('extension-range');
  if ((m.extensionRange ?? []).some((r) => r.end === 536_870_912)) out.add('extension-range-to-max');
  if ((m.reservedRange ?? []).length > 0) out.add('reserved-range');
  if ((m.reservedName ?? []).length > 0) out.add('reserved-name');
  if ((m.extension ?? []).length > 0) out.add('message-extension');
  const fields = m.field ?? [];
  const real = new Map<number, number>();
  for (const f of fields) {
    if (f.oneofIndex !== undefined && !f.proto3Optional) real.set(f.oneofIndex, (real.get(f.oneofIndex) ?? 0) + 1);
    fieldFeatures(f, file, out);
    const entry = (m.nestedType ?? []).find((n) => n.options?.mapEntry && f.typeName?.endsWith(`.${n.name}`));
    const value = entry?.field?.[1];
    if (value?.type === 11) out.add('map-message-value');
    if (value?.type === 14) out.add('map-enum-value');
  }
  if ([...real.values()].some((n) => n >= 2)) out.add('oneof-2-fields');
  for (const e of m.enumType ?? []) enumFeatures(e, out);
  for (const n of m.nestedType ?? []) messageFeatures(n, depth + 1, file, out);
}

function fieldFeatures(f: FieldDescriptorValue, file: FileDescriptorValue, out: Set<SetFeature>): void {
  if (f.proto3Optional) out.add('proto3-optional');
  if (f.label === 2) out.add('required');
  if (f.defaultValue !== undefined) out.add('default-value');
  if (f.options?.packed) out.add('packed');
  if (f.number > 19_999) out.add('field-number-above-19999');
  if (f.number === 536_870_911) out.add('field-number-max');
  if (KEYWORDS.has(f.name)) out.add('keyword-field-name');
  if (f.name.startsWith('_')) out.add('leading-underscore-field');
  if (f.typeName !== undefined) {
    const pkg = file.package === undefined ? '.' : `.${file.package}.`;
    // A type outside the file's package is necessarily from another file.
    if (!f.typeName.startsWith(pkg)) out.add('cross-file-type');
  }
}
