import type { DescriptorValue, FileDescriptorValue } from './descriptor-types.js';
import type { ExtensionNumberSpace, FieldNumberSpace } from './number-space.js';
import type { MessagePlan } from './plan-types.js';
import type { SymbolTable } from './symbol-table.js';

/**
 * The shapes the descriptor-set builder passes between its steps (build-*.ts), kept apart from
 * the steps themselves so that no two steps depend on each other just to name a type.
 */

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

/** A message a field or method may refer to: one of the set's own, or a well-known type. */
export interface CandidateMessage {
  /** Full name without the leading dot. */
  fullName: string;
  node: DescriptorValue;
}

export interface Candidates {
  messages: CandidateMessage[];
  enums: EnumInfo[];
}
