import type { FileDescriptorSetValue, FileDescriptorValue } from './descriptor-types.js';
import { EMPTY_FILE_PLAN, type FilePlan, type SetPlan } from './descriptor-plan.js';
import { typeCandidates } from './build-context.js';
import type { BuildContext, FileInfo } from './build-types.js';
import { buildEnum } from './build-enum.js';
import { buildExtensions, buildServices } from './build-extensions.js';
import { buildMessageMembers } from './build-message-members.js';
import { buildMessageSkeletons } from './build-message-skeleton.js';
import { uniqueName } from './naming.js';
import { SymbolTable } from './symbol-table.js';
import { WELL_KNOWN_FILES, WELL_KNOWN_PACKAGE, wellKnownEntry } from './well-known.js';

/**
 * Turns a plan into a descriptor set the schema compiler accepts, deterministically. Files come
 * in topological order: a file imports only files before it, so there are no cycles
 * (spec A, "Plugin messages", CodeGeneratorRequest.proto_file). Every type name is fully
 * qualified with a leading dot and resolves to a type of the file itself or of a file it may
 * see through its imports.
 */
export function buildDescriptorSet(plan: SetPlan): FileDescriptorSetValue {
  const files = plan.files.length > 0 ? plan.files : [EMPTY_FILE_PLAN];
  const table = new SymbolTable();
  // Packages first: a message may never take a name some package (of any file) already has.
  for (const file of files) if (file.packageName) table.addPackage(file.packageName.join('.'));

  // Well-known files any file imports come first, unchanged; their names, paths and package are
  // taken before the set's own files are named. (Generated package segments are lower case, so
  // no generated package can be one of their capitalised message names.)
  const picks = files.map(wellKnownPicks);
  const wellKnown = [...new Set(picks.flat())].sort((a, b) => a - b);
  const paths = new Set<string>();
  if (wellKnown.length > 0) table.addPackage(WELL_KNOWN_PACKAGE);
  for (const w of wellKnown) {
    paths.add(WELL_KNOWN_FILES[w] ?? '');
    for (const symbol of wellKnownEntry(w).symbols) table.add(symbol);
  }

  const ctx: BuildContext = { table, files: [], extensionNumbers: new Map() };
  files.forEach((filePlan, i) => ctx.files.push(declareFile(ctx, filePlan, i, picks[i] ?? [], paths, plan.maxDepth)));
  files.forEach((filePlan, i) => defineFile(ctx, filePlan, i));
  return { file: [...wellKnown.map((w) => wellKnownEntry(w).file), ...ctx.files.map((f) => f.node)] };
}

/** The well-known files a file imports, as indexes into WELL_KNOWN_FILES: each once, in plan order. */
function wellKnownPicks(plan: FilePlan): number[] {
  return [...new Set(plan.wellKnown.map((w) => w % WELL_KNOWN_FILES.length))];
}

/**
 * First pass: name, package, imports, options and every type's name. `wellKnown` is the file's
 * own well-known imports (see wellKnownPicks).
 */
function declareFile(ctx: BuildContext, plan: FilePlan, index: number, wellKnown: number[], paths: Set<string>, maxDepth: number): FileInfo {
  const stem = uniqueName([...plan.path.dirs, plan.path.base].join('/'), (c) => !paths.has(`${c}.proto`));
  const name = `${stem}.proto`;
  paths.add(name);
  const proto3 = plan.syntax === 'proto3';
  const scope = plan.packageName ? plan.packageName.join('.') : '';
  const node: FileDescriptorValue = { name };
  if (scope !== '') node.package = scope;

  const deps: number[] = [];
  const publicDeps: number[] = [];
  if (index > 0) {
    for (const imp of plan.imports) {
      const dep = imp.pick % index;
      if (deps.includes(dep)) continue;
      if (imp.public) publicDeps.push(dep);
      deps.push(dep);
    }
  }
  // The set's own imports first, so public_dependency indexes stay what they were.
  const dependency = [...deps.map((d) => ctx.files[d]?.node.name ?? ''), ...wellKnown.map((w) => WELL_KNOWN_FILES[w] ?? '')];
  if (dependency.length > 0) node.dependency = dependency;
  if (publicDeps.length > 0) node.publicDependency = publicDeps.map((d) => deps.indexOf(d));

  if (plan.goPackage || plan.deprecated) {
    node.options = {};
    if (plan.goPackage) node.options.goPackage = `example.com/gen/f${index};f${index}`;
    if (plan.deprecated) node.options.deprecated = true;
  }
  if (proto3) node.syntax = 'proto3';

  const file: FileInfo = { node, proto3, scope, deps, publicDeps, messages: [], allMessages: [], allEnums: [], wellKnown };
  file.messages.push(...buildMessageSkeletons(ctx, file, index, plan.messages, maxDepth));
  if (file.messages.length > 0) node.messageType = file.messages.map((m) => m.node);
  const enums = plan.enums.map((e) => {
    const built = buildEnum(ctx.table, scope, e, proto3, index);
    file.allEnums.push(built.info);
    return built.node;
  });
  if (enums.length > 0) node.enumType = enums;
  return file;
}

/** Second pass: fields, maps, oneofs, extensions and services, which refer to other types. */
function defineFile(ctx: BuildContext, plan: FilePlan, index: number): void {
  const file = ctx.files[index];
  if (!file) return;
  const candidates = typeCandidates(ctx, index);
  for (const message of file.messages) buildMessageMembers(ctx, message, candidates);
  if (!file.proto3) {
    const extensions = buildExtensions(ctx, file.scope, plan.extends, candidates);
    if (extensions.length > 0) file.node.extension = extensions;
  }
  const services = buildServices(ctx, file.scope, plan.services, candidates);
  if (services.length > 0) file.node.service = services;
}
