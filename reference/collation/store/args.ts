/** Reading the fields of a command document, refusing a wrong one with a message that says what to write. */
import { refuse } from './refusal.js';
import { isDoc, type Doc } from './values.js';

export function nameArg(cmd: Doc, command: string): string {
  const v = cmd[command];
  if (typeof v !== 'string' || v === '') refuse('BadValue', `${command} needs a collection or view name as a non-empty string, e.g. {${command}: "items"}`);
  return v;
}

export function docArray(cmd: Doc, field: string, command: string): Doc[] {
  const v = cmd[field];
  if (!Array.isArray(v) || v.length === 0 || !v.every(isDoc)) refuse('BadValue', `${command} needs "${field}" as a non-empty array of documents`);
  return v;
}

export function optionalBool(d: Doc, field: string, where: string): boolean {
  const v = d[field];
  if (v === undefined) return false;
  if (typeof v !== 'boolean') refuse('TypeMismatch', `${where}: "${field}" must be true or false`);
  return v;
}

export function optionalCount(d: Doc, field: string, where: string): number | undefined {
  const v = d[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) refuse('BadValue', `${where}: "${field}" must be a non-negative integer`);
  return v;
}
