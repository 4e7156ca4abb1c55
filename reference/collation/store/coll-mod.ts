/**
 * `collMod`: changes a view's definition (`viewOn`, `pipeline`). A view's default collation is
 * fixed at creation (part F, "Collation and indexes" 6), so a `collation` field is refused
 * (Errors 2: an operation that tries to change a view's default collation fails) and nothing
 * changes. On a collection there is nothing collMod can change here.
 */
import { nameArg } from './args.js';
import { checkViewDefinition } from './ddl.js';
import type { StoreContext } from './context.js';
import { refuse } from './refusal.js';
import { clone, type Doc } from './values.js';

const VIEW_FIELDS = new Set(['collMod', 'viewOn', 'pipeline', 'collation']);

export function collMod(ctx: StoreContext, cmd: Doc): Doc {
  const name = nameArg(cmd, 'collMod');
  const ns = ctx.namespaces.get(name);
  if (ns === undefined) refuse('NamespaceNotFound', `collMod: there is no collection or view "${name}"`);
  const unknown = Object.keys(cmd).find((k) => !VIEW_FIELDS.has(k));
  if (unknown !== undefined) refuse('InvalidOptions', `collMod: unknown option "${unknown}"; this store changes only a view's "viewOn" and "pipeline"`);
  if (ns.kind === 'collection') {
    const viewOnly = ['viewOn', 'pipeline', 'collation'].find((k) => cmd[k] !== undefined);
    if (viewOnly !== undefined) refuse('InvalidOptions', `collMod: "${viewOnly}" cannot be changed on the collection "${name}"${viewOnly === 'collation' ? '; a collection\'s default collation is set when it is created' : ' (it belongs to views)'}`);
    return { ok: 1 };
  }
  let collation = ns.collation;
  if (cmd.collation !== undefined) {
    if (ctx.faults.viewCollationChangeAccepted !== true) {
      refuse('InvalidOptions', `collMod: the default collation of the view "${name}" is fixed when it is created and cannot be changed; drop the view and create it again with the collation it should have`);
    }
    collation = ctx.collations.parse(cmd.collation, 'collMod: collation');
  }
  const pipeline = cmd.pipeline ?? ns.pipeline;
  const viewOn = checkViewDefinition(ctx, name, cmd.viewOn ?? ns.viewOn, pipeline, collation, 'collMod');
  ctx.namespaces.set(name, { kind: 'view', name, viewOn, pipeline: clone(pipeline as Doc[]), collation });
  return { ok: 1 };
}
