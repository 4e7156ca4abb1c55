import { Label, type FieldDescriptorValue, type ServiceDescriptorValue } from './descriptor-types.js';
import type { ExtendPlan, ServicePlan } from './descriptor-plan.js';
import { packable, resolveType } from './build-fields.js';
import type { BuildContext, Candidates } from './build-types.js';
import { qualify, toJsonName } from './naming.js';
import { ExtensionNumberSpace } from './number-space.js';

/**
 * proto2 `extend` blocks declared in `scope` (a package or a message). The extendee is a visible
 * proto2 message with extension ranges, named fully qualified; each extension number lies in one
 * of its ranges and is unique among all extensions of that message in the set. Extensions cannot
 * be `required`.
 */
export function buildExtensions(ctx: BuildContext, scope: string, plans: readonly ExtendPlan[], candidates: Candidates): FieldDescriptorValue[] {
  const targets = candidates.messages.filter((m) => (m.node.extensionRange?.length ?? 0) > 0);
  const out: FieldDescriptorValue[] = [];
  if (targets.length === 0) return out;
  for (const plan of plans) {
    const target = targets[plan.target % targets.length];
    if (!target) continue;
    let space = ctx.extensionNumbers.get(target.fullName);
    if (!space) {
      space = new ExtensionNumberSpace(target.node.extensionRange ?? []);
      ctx.extensionNumbers.set(target.fullName, space);
    }
    for (const fieldPlan of plan.fields) {
      const number = space.allocate(fieldPlan.numberHint);
      if (number === null) continue;
      const name = ctx.table.claim(scope, fieldPlan.name);
      const resolved = resolveType(fieldPlan.type, candidates);
      const label = fieldPlan.label === 'repeated' ? Label.REPEATED : Label.OPTIONAL;
      const field: FieldDescriptorValue = {
        name,
        extendee: '.' + target.fullName,
        number,
        label,
        type: resolved.type,
        jsonName: toJsonName(name),
      };
      if (resolved.typeName !== undefined) field.typeName = resolved.typeName;
      if (fieldPlan.packed && label === Label.REPEATED && packable(resolved.type)) field.options = { packed: true };
      if (fieldPlan.deprecated) field.options = { ...field.options, deprecated: true };
      out.push(field);
    }
  }
  return out;
}

/**
 * Services of a file; method input and output types are visible messages (fully qualified).
 * A service is left out when the file sees no message at all.
 */
export function buildServices(ctx: BuildContext, scope: string, plans: readonly ServicePlan[], candidates: Candidates): ServiceDescriptorValue[] {
  const messages = candidates.messages;
  if (messages.length === 0) return [];
  return plans.map((plan) => {
    const name = ctx.table.claim(scope, plan.name);
    const serviceScope = qualify(scope, name);
    return {
      name,
      method: plan.methods.map((m) => {
        const input = messages[m.input % messages.length];
        const output = messages[m.output % messages.length];
        const method: NonNullable<ServiceDescriptorValue['method']>[number] = {
          name: ctx.table.claim(serviceScope, m.name),
          inputType: '.' + (input?.fullName ?? ''),
          outputType: '.' + (output?.fullName ?? ''),
        };
        if (m.clientStreaming) method.clientStreaming = true;
        if (m.serverStreaming) method.serverStreaming = true;
        return method;
      }),
    };
  });
}
