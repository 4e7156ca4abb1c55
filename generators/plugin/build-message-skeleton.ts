import type { DescriptorValue, MessageRangeValue } from './descriptor-types.js';
import type { MessagePlan } from './descriptor-plan.js';
import type { BuildContext, FileInfo, MessageInfo } from './build-context.js';
import { buildEnum } from './build-enum.js';
import { qualify } from './naming.js';
import { FieldNumberSpace } from './number-space.js';

/**
 * First pass over a message: its name, reserved and extension ranges, reserved names, nested
 * enums and nested messages. Fields come in the second pass, once every type of the set has a
 * name, so that any field can refer to any visible type.
 */
export function buildMessageSkeleton(ctx: BuildContext, file: FileInfo, fileIndex: number, scope: string, plan: MessagePlan): MessageInfo {
  const name = ctx.table.claim(scope, plan.name);
  const fullName = qualify(scope, name);
  const node: DescriptorValue = { name };
  const numbers = new FieldNumberSpace();

  const extensionRanges: MessageRangeValue[] = [];
  const reservedRanges: MessageRangeValue[] = [];
  for (const range of plan.ranges) {
    // Extension ranges are a proto2 feature; proto3 allows extensions only of option messages.
    if (range.kind === 'extension' && file.proto3) continue;
    const placed = numbers.placeRange(range.startHint, range.length, range.kind === 'extension' && range.toMax);
    if (!placed) continue;
    (range.kind === 'extension' ? extensionRanges : reservedRanges).push(placed);
  }
  if (extensionRanges.length > 0) node.extensionRange = extensionRanges;
  if (reservedRanges.length > 0) node.reservedRange = reservedRanges;

  const reservedNames = [...new Set(plan.reservedNames)];
  if (reservedNames.length > 0) node.reservedName = reservedNames;
  if (plan.deprecated) node.options = { deprecated: true };

  const info: MessageInfo = {
    fullName,
    fileIndex,
    proto3: file.proto3,
    node,
    plan,
    numbers,
    fieldKeys: new Set(),
    reservedNames: new Set(reservedNames),
    oneofNames: new Set(),
    children: [],
  };
  file.allMessages.push(info);

  const enums = plan.enums.map((e) => {
    const built = buildEnum(ctx.table, fullName, e, file.proto3, fileIndex);
    file.allEnums.push(built.info);
    return built.node;
  });
  if (enums.length > 0) node.enumType = enums;

  for (const nested of plan.nested) {
    const child = buildMessageSkeleton(ctx, file, fileIndex, fullName, nested);
    info.children.push(child);
    (node.nestedType ??= []).push(child.node);
  }
  return info;
}
