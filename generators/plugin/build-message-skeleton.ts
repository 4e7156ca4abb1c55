import type { DescriptorValue, MessageRangeValue } from './descriptor-types.js';
import type { MessagePlan } from './descriptor-plan.js';
import type { BuildContext, FileInfo, MessageInfo } from './build-types.js';
import { buildEnum } from './build-enum.js';
import { qualify } from './naming.js';
import { FieldNumberSpace } from './number-space.js';

/**
 * First pass over the messages of a file: names, nesting, reserved and extension ranges,
 * reserved names and nested enums. Fields come in the second pass, once every type of the set
 * has a name, so that any field can refer to any visible type. Returns the top-level messages.
 */
export function buildMessageSkeletons(ctx: BuildContext, file: FileInfo, fileIndex: number, plans: readonly MessagePlan[], maxDepth: number): MessageInfo[] {
  const all: MessageInfo[] = [];
  const top: MessageInfo[] = [];
  plans.forEach((plan, i) => {
    let parent = plan.parent === null || i === 0 ? undefined : all[plan.parent % i];
    if (parent && parent.depth >= maxDepth) parent = undefined;
    const info = buildMessageSkeleton(ctx, file, fileIndex, parent ? parent.fullName : file.scope, plan, parent ? parent.depth + 1 : 0);
    all.push(info);
    if (parent) {
      parent.children.push(info);
      (parent.node.nestedType ??= []).push(info.node);
    } else {
      top.push(info);
    }
  });
  return top;
}

function buildMessageSkeleton(ctx: BuildContext, file: FileInfo, fileIndex: number, scope: string, plan: MessagePlan, depth: number): MessageInfo {
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
    depth,
  };
  file.allMessages.push(info);

  const enums = plan.enums.map((e) => {
    const built = buildEnum(ctx.table, fullName, e, file.proto3, fileIndex);
    file.allEnums.push(built.info);
    return built.node;
  });
  if (enums.length > 0) node.enumType = enums;
  return info;
}
