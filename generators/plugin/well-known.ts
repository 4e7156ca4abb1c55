import { readFileSync } from 'node:fs';
import { SpecgateError } from '../../src/errors.js';
import { fromRoot } from '../../src/paths.js';
import type { CandidateMessage } from './build-types.js';
import type { DescriptorValue, FileDescriptorValue } from './descriptor-types.js';
import { qualify } from './naming.js';

/**
 * Well-known types: the google/protobuf/*.proto files that ship with the schema compiler and
 * that real schemas import all the time (and that plugins often special-case). Their
 * descriptors are stored as protoc 3.21 builds them (well-known.json, kept in step by
 * test/generators/plugin/well-known.test.ts), so generating needs no compiler. Only files
 * without imports of their own are offered.
 */
export const WELL_KNOWN_FILES = [
  'google/protobuf/any.proto',
  'google/protobuf/duration.proto',
  'google/protobuf/empty.proto',
  'google/protobuf/field_mask.proto',
  'google/protobuf/struct.proto',
  'google/protobuf/timestamp.proto',
  'google/protobuf/wrappers.proto',
] as const;

export const WELL_KNOWN_PACKAGE = 'google.protobuf';

let stored: FileDescriptorValue[] | undefined;

/** The stored descriptors, in WELL_KNOWN_FILES order. */
export function wellKnownDescriptors(): FileDescriptorValue[] {
  stored ??= (JSON.parse(readFileSync(fromRoot('generators', 'plugin', 'well-known.json'), 'utf8')) as { file: FileDescriptorValue[] }).file;
  return stored;
}

/** The descriptor of WELL_KNOWN_FILES[index]. */
export function wellKnownFile(index: number): FileDescriptorValue {
  const name = WELL_KNOWN_FILES[index];
  const file = wellKnownDescriptors().find((f) => f.name === name);
  if (!file) throw new SpecgateError('SG_INTERNAL', `generators/plugin/well-known.json has no ${String(name)}; rebuild it (SPECGATE_UPDATE_PLUGIN_DATA=1)`);
  return file;
}

export function isWellKnownFile(name: string): boolean {
  return (WELL_KNOWN_FILES as readonly string[]).includes(name);
}

/** Top-level messages of a well-known file, as field and method types. */
function wellKnownMessages(file: FileDescriptorValue): CandidateMessage[] {
  return (file.messageType ?? []).map((node) => ({ fullName: qualify(file.package ?? '', node.name), node }));
}

/** Every full name a well-known file defines: messages, nested types, enums and enum values. */
export function wellKnownSymbols(file: FileDescriptorValue): string[] {
  const out: string[] = [];
  const scope = file.package ?? '';
  const enums = (list: FileDescriptorValue['enumType'], s: string): void => {
    for (const e of list ?? []) {
      out.push(qualify(s, e.name));
      // Enum values live in the scope enclosing their enum.
      for (const v of e.value ?? []) out.push(qualify(s, v.name));
    }
  };
  const messages = (list: DescriptorValue[] | undefined, s: string): void => {
    for (const m of list ?? []) {
      const full = qualify(s, m.name);
      out.push(full);
      messages(m.nestedType, full);
      enums(m.enumType, full);
    }
  };
  messages(file.messageType, scope);
  enums(file.enumType, scope);
  return out;
}

/** What a build needs of one well-known file. */
export interface WellKnownEntry {
  file: FileDescriptorValue;
  /** Every full name the file defines (wellKnownSymbols). */
  symbols: readonly string[];
  /** Its top-level messages, as field and method types. */
  messages: readonly CandidateMessage[];
}

const entries = new Map<number, WellKnownEntry>();

/**
 * WELL_KNOWN_FILES[index] with its symbols and messages, worked out on first use and kept: the
 * stored descriptors never change, and every generated set that imports the file needs them.
 */
export function wellKnownEntry(index: number): WellKnownEntry {
  let entry = entries.get(index);
  if (!entry) {
    const file = wellKnownFile(index);
    entry = { file, symbols: wellKnownSymbols(file), messages: wellKnownMessages(file) };
    entries.set(index, entry);
  }
  return entry;
}
