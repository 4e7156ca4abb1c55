import {
  FieldType,
  Label,
  MAP_KEY_TYPES,
  SCALAR_TYPES,
  type DescriptorValue,
  type FieldDescriptorValue,
  type FieldTypeNumber,
  type LabelNumber,
} from './descriptor-types.js';
import type { FieldPlan, MapPlan, TypeChoice } from './descriptor-plan.js';
import type { Candidates, EnumInfo, MessageInfo } from './build-types.js';
import { scalarDefault } from './default-values.js';
import { fieldConflictKey, mapEntryName, qualify, toJsonName } from './naming.js';
import type { SymbolTable } from './symbol-table.js';

interface ResolvedType {
  type: FieldTypeNumber;
  typeName?: string;
  enumInfo?: EnumInfo;
}

/** Resolves a type choice against the visible types; falls back to a scalar when none fits. */
export function resolveType(choice: TypeChoice, candidates: Candidates): ResolvedType {
  if (choice.kind === 'message' && candidates.messages.length > 0) {
    const target = candidates.messages[choice.pick % candidates.messages.length];
    if (target) return { type: FieldType.MESSAGE, typeName: '.' + target.fullName };
  }
  if (choice.kind === 'enum' && candidates.enums.length > 0) {
    const target = candidates.enums[choice.pick % candidates.enums.length];
    if (target) return { type: FieldType.ENUM, typeName: '.' + target.fullName, enumInfo: target };
  }
  const index = choice.kind === 'scalar' ? choice.scalar : choice.pick;
  return { type: SCALAR_TYPES[index % SCALAR_TYPES.length] ?? FieldType.INT32 };
}

/** Packed encoding applies to repeated numeric, bool and enum fields only. */
export function packable(type: FieldTypeNumber): boolean {
  return type !== FieldType.STRING && type !== FieldType.BYTES && type !== FieldType.MESSAGE && type !== FieldType.GROUP;
}

export interface FieldSite {
  table: SymbolTable;
  message: MessageInfo;
  candidates: Candidates;
  /** Set for members of a real oneof. */
  oneofIndex?: number;
}

function labelFor(plan: FieldPlan, proto3: boolean, inOneof: boolean): { label: LabelNumber; proto3Optional: boolean } {
  if (inOneof) return { label: Label.OPTIONAL, proto3Optional: false };
  if (plan.label === 'repeated') return { label: Label.REPEATED, proto3Optional: false };
  if (proto3) return { label: Label.OPTIONAL, proto3Optional: plan.label === 'optional' };
  return { label: plan.label === 'required' ? Label.REQUIRED : Label.OPTIONAL, proto3Optional: false };
}

/** Claims a field name in the message: free as a symbol, distinct JSON key, not reserved. */
function claimFieldName(site: FieldSite, base: string, extra: (name: string) => boolean = () => true): string {
  const { message } = site;
  const name = site.table.claim(
    message.fullName,
    base,
    (c) => !message.fieldKeys.has(fieldConflictKey(c)) && !message.reservedNames.has(c) && extra(c),
  );
  message.fieldKeys.add(fieldConflictKey(name));
  return name;
}

/** A regular field (or a member of a oneof) of a message, as the compiler describes it. */
export function buildField(site: FieldSite, plan: FieldPlan): FieldDescriptorValue {
  const { message } = site;
  const inOneof = site.oneofIndex !== undefined;
  const name = claimFieldName(site, plan.name);
  const number = message.numbers.allocate(plan.numberHint);
  const resolved = resolveType(plan.type, site.candidates);
  const { label, proto3Optional } = labelFor(plan, message.proto3, inOneof);
  const field: FieldDescriptorValue = { name, number, label, type: resolved.type, jsonName: toJsonName(name) };
  if (resolved.typeName !== undefined) field.typeName = resolved.typeName;
  if (site.oneofIndex !== undefined) field.oneofIndex = site.oneofIndex;
  if (proto3Optional) field.proto3Optional = true;

  // proto3 has no explicit defaults; keep them on plain singular proto2 fields.
  if (!message.proto3 && !inOneof && label !== Label.REPEATED && plan.defaultPick !== null) {
    const value = resolved.enumInfo
      ? resolved.enumInfo.valueNames[plan.defaultPick % resolved.enumInfo.valueNames.length]
      : resolved.type === FieldType.MESSAGE
        ? undefined
        : scalarDefault(resolved.type, plan.defaultPick);
    if (value !== undefined) field.defaultValue = value;
  }
  applyOptions(field, plan, label);
  return field;
}

function applyOptions(field: FieldDescriptorValue, plan: FieldPlan, label: LabelNumber): void {
  if (plan.packed && label === Label.REPEATED && packable(field.type)) field.options = { packed: true };
  if (plan.deprecated) field.options = { ...field.options, deprecated: true };
}

/**
 * A map field: a repeated field of a synthesized nested `<Name>Entry` message with fields
 * `key` = 1 and `value` = 2 and option `mapEntry`, placed in the same message, exactly as the
 * compiler expands `map<K, V> name = N;`.
 */
export function buildMap(site: FieldSite, plan: MapPlan): FieldDescriptorValue {
  const { message, table } = site;
  const name = claimFieldName(site, plan.name, (c) => table.isFree(qualify(message.fullName, mapEntryName(c))));
  const entryName = mapEntryName(name);
  table.add(qualify(message.fullName, entryName));
  const number = message.numbers.allocate(plan.numberHint);
  const keyType = MAP_KEY_TYPES[plan.key % MAP_KEY_TYPES.length] ?? FieldType.STRING;
  // The compiler requires an enum map value to start with 0, the map's default value.
  const value = resolveType(plan.value, { ...site.candidates, enums: site.candidates.enums.filter((e) => e.firstIsZero) });
  const valueField: FieldDescriptorValue = { name: 'value', number: 2, label: Label.OPTIONAL, type: value.type, jsonName: 'value' };
  if (value.typeName !== undefined) valueField.typeName = value.typeName;
  const entry: DescriptorValue = {
    name: entryName,
    field: [{ name: 'key', number: 1, label: Label.OPTIONAL, type: keyType, jsonName: 'key' }, valueField],
    options: { mapEntry: true },
  };
  (message.node.nestedType ??= []).push(entry);
  return {
    name,
    number,
    label: Label.REPEATED,
    type: FieldType.MESSAGE,
    typeName: `.${message.fullName}.${entryName}`,
    jsonName: toJsonName(name),
  };
}
