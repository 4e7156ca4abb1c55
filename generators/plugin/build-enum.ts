import type { EnumDescriptorValue, EnumValueDescriptorValue } from './descriptor-types.js';
import type { EnumPlan } from './descriptor-plan.js';
import type { EnumInfo } from './build-types.js';
import { enumValueConflictKeys, qualify } from './naming.js';
import { EnumNumberSpace } from './number-space.js';
import type { SymbolTable } from './symbol-table.js';

/**
 * Builds one enum declared in `scope` (a package or a message full name). Value names are
 * registered in `scope` itself, not under the enum: the compiler gives enum values C++ scoping,
 * so they must not clash with any sibling of the enum. proto3 enums begin with the value 0.
 */
export function buildEnum(
  table: SymbolTable,
  scope: string,
  plan: EnumPlan,
  proto3: boolean,
  fileIndex: number,
): { node: EnumDescriptorValue; info: EnumInfo } {
  const name = table.claim(scope, plan.name);
  const numbers = new EnumNumberSpace(proto3);
  const reservedRanges = plan.reserved.map((r) => numbers.placeRange(r.startHint, r.length)).filter((r) => r !== null);
  const reservedNames = [...new Set(plan.reservedNames)];
  const keys = new Set<string>();
  const values: EnumValueDescriptorValue[] = [];

  plan.values.forEach((valuePlan, i) => {
    const valueName = table.claim(scope, valuePlan.name, (candidate) => {
      if (reservedNames.includes(candidate)) return false;
      return enumValueConflictKeys(name, candidate).every((k) => !keys.has(k));
    });
    for (const k of enumValueConflictKeys(name, valueName)) keys.add(k);

    let number: number;
    const first = values[0];
    if (i === 0 && proto3) {
      number = 0;
      numbers.take(0);
    } else if (plan.alias && i === plan.values.length - 1 && first !== undefined) {
      number = first.number;
    } else {
      number = numbers.allocate(valuePlan.numberHint);
    }
    const value: EnumValueDescriptorValue = { name: valueName, number };
    if (valuePlan.deprecated) value.options = { deprecated: true };
    values.push(value);
  });

  const node: EnumDescriptorValue = { name, value: values };
  const aliased = plan.alias && values.length >= 2;
  if (aliased) node.options = { allowAlias: true };
  if (reservedRanges.length > 0) node.reservedRange = reservedRanges;
  if (reservedNames.length > 0) node.reservedName = reservedNames;
  return {
    node,
    info: { fullName: qualify(scope, name), fileIndex, proto3, valueNames: values.map((v) => v.name), firstIsZero: values[0]?.number === 0 },
  };
}
