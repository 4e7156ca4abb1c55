import type { DescriptorValue, FileDescriptorValue } from './descriptor-types.js';
import type { CandidateMessage, Candidates } from './build-fields.js';
import type { MessagePlan } from './descriptor-plan.js';
import { wellKnownEntry } from './well-known.js';
import type { ExtensionNumberSpace, FieldNumberSpace } from './number-space.js';
import type { SymbolTable } from './symbol-table.js';

/** A message declared in the set, as the builder tracks it between its two passes. */
export interface MessageInfo {
  /** Full name without the leading dot. */
  fullName: string;
  fileIndex: number;
  proto3: boolean;
  node: DescriptorValue;
  plan: MessagePlan;
  numbers: FieldNumberSpace;
  /** Conflict keys of the message's field names (see `fieldConflictKey`). */
  fieldKeys: Set<string>;
  reservedNames: Set<string>;
  /** Oneof names in the message, real and synthetic. */
  oneofNames: Set<string>;
  children: MessageInfo[];
  /** 0 for a top-level message. */
  depth: number;
}

export interface EnumInfo {
  fullName: string;
  fileIndex: number;
  /** Declared in a proto3 file: only such enums may be used by proto3 messages. */
  proto3: boolean;
  valueNames: string[];
  /** The first value is 0: only such enums may be map values (the map's default value is 0). */
  firstIsZero: boolean;
}

export interface FileInfo {
  node: FileDescriptorValue;
  proto3: boolean;
  /** Package scope ('' for none). */
  scope: string;
  /** Indexes of the files this one imports, and of the public ones among them. */
  deps: number[];
  publicDeps: number[];
  /** Top-level messages, each with its nested ones. */
  messages: MessageInfo[];
  /** Every message and enum of the file, in declaration order (map entries excluded). */
  allMessages: MessageInfo[];
  allEnums: EnumInfo[];
  /** Indexes into WELL_KNOWN_FILES of the well-known files it imports (never publicly). */
  wellKnown: number[];
}

/** Shared state of one build. */
export interface BuildContext {
  table: SymbolTable;
  files: FileInfo[];
  /** Extension numbers in use, per extendee full name. */
  extensionNumbers: Map<string, ExtensionNumberSpace>;
}

/**
 * The files whose types `fileIndex` may use: itself, its direct imports, and whatever those
 * re-export through public imports (transitively). The compiler rejects a reference to a type of
 * a file that is imported only indirectly.
 */
export function visibleFiles(ctx: BuildContext, fileIndex: number): number[] {
  const file = ctx.files[fileIndex];
  if (!file) return [];
  const seen = new Set<number>([fileIndex]);
  const queue = [...file.deps];
  while (queue.length > 0) {
    const next = queue.shift();
    if (next === undefined || seen.has(next)) continue;
    seen.add(next);
    queue.push(...(ctx.files[next]?.publicDeps ?? []));
  }
  return [...seen].sort((a, b) => a - b);
}

/**
 * Types a field of `fileIndex` may refer to, in a stable order: the set's own, then the
 * messages of the well-known files it imports itself (their enums are left out).
 */
export function typeCandidates(ctx: BuildContext, fileIndex: number): Candidates {
  const proto3 = ctx.files[fileIndex]?.proto3 ?? false;
  const messages: CandidateMessage[] = [];
  const enums: EnumInfo[] = [];
  for (const i of visibleFiles(ctx, fileIndex)) {
    const file = ctx.files[i];
    if (!file) continue;
    messages.push(...file.allMessages);
    // proto3 messages may only use open (proto3) enums.
    enums.push(...file.allEnums.filter((e) => !proto3 || e.proto3));
  }
  for (const w of ctx.files[fileIndex]?.wellKnown ?? []) messages.push(...wellKnownEntry(w).messages);
  return { messages, enums };
}
