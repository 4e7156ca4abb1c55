import type { FieldDescriptorValue } from './descriptor-types.js';
import type { BuildContext, MessageInfo } from './build-types.js';
import { buildExtensions } from './build-extensions.js';
import { buildField, buildMap, type FieldSite } from './build-fields.js';
import type { Candidates } from './build-types.js';
import { qualify, syntheticOneofName } from './naming.js';

/**
 * Second pass over a message (and its nested messages): fields, oneofs, map fields and nested
 * `extend` blocks. Members of one oneof are consecutive, real oneofs come first in
 * `oneofDecl`, and each proto3 `optional` field gets its own synthetic oneof after all real
 * ones, in field order, as the compiler lays them out.
 */
export function buildMessageMembers(ctx: BuildContext, message: MessageInfo, candidates: Candidates): void {
  const fields: FieldDescriptorValue[] = [];
  const oneofs: string[] = [];
  const site: FieldSite = { table: ctx.table, message, candidates };

  for (const member of message.plan.members) {
    if (member.kind === 'field') {
      fields.push(buildField(site, member.field));
    } else if (member.kind === 'map') {
      fields.push(buildMap(site, member.map));
    } else {
      const name = ctx.table.claim(message.fullName, member.oneof.name, (c) => !message.oneofNames.has(c));
      message.oneofNames.add(name);
      const oneofIndex = oneofs.length;
      oneofs.push(name);
      for (const f of member.oneof.fields) fields.push(buildField({ ...site, oneofIndex }, f));
    }
  }

  for (const field of fields) {
    if (!field.proto3Optional) continue;
    const name = syntheticOneofName(field.name, (c) => !ctx.table.isFree(qualify(message.fullName, c)) || message.oneofNames.has(c));
    ctx.table.add(qualify(message.fullName, name));
    message.oneofNames.add(name);
    field.oneofIndex = oneofs.length;
    oneofs.push(name);
  }

  if (fields.length > 0) message.node.field = fields;
  if (oneofs.length > 0) message.node.oneofDecl = oneofs.map((name) => ({ name }));

  if (!message.proto3) {
    const extensions = buildExtensions(ctx, message.fullName, message.plan.extends, candidates);
    if (extensions.length > 0) message.node.extension = extensions;
  }
  for (const child of message.children) buildMessageMembers(ctx, child, candidates);
}
