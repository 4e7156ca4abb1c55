import { SpecgateError } from '../../src/errors.js';

/**
 * Name rules of the schema compiler that generated descriptors must follow so the compiler
 * accepts them and so they look exactly as the compiler writes them into a CodeGeneratorRequest
 * (spec A, "Plugin messages": proto_file holds the compiler's own descriptors).
 */

/**
 * The `jsonName` the compiler fills in for a field: underscores dropped, the character after
 * an underscore upper-cased, everything else kept (`foo_bar` -> `fooBar`, `_x` -> `X`).
 */
export function toJsonName(fieldName: string): string {
  let out = '';
  let upperNext = false;
  for (const ch of fieldName) {
    if (ch === '_') {
      upperNext = true;
    } else if (upperNext) {
      out += ch.toUpperCase();
      upperNext = false;
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * Name of the nested message the compiler synthesizes for a map field: the field name in
 * CamelCase with a capital first letter, plus `Entry` (`the_map` -> `TheMapEntry`). The compiler
 * rejects a map entry whose name differs from this.
 */
export function mapEntryName(fieldName: string): string {
  const camel = toJsonName(fieldName);
  const first = camel.charAt(0);
  return first.toUpperCase() + camel.slice(1) + 'Entry';
}

/**
 * The key under which the compiler compares field names of one proto3 message ("The JSON
 * camel-case name of field ... conflicts"): lower case with underscores removed. Applying it to
 * every message is stricter than needed for proto2, which keeps the generator simple.
 */
export function fieldConflictKey(fieldName: string): string {
  return fieldName.toLowerCase().replace(/_/g, '');
}

/**
 * Keys under which enum value names of one enum must be unique. The compiler compares names
 * ignoring case and underscores after stripping the enum's name as a prefix ("Enum name A has
 * the same name as E_A if you ignore case and strip out the enum name prefix"); it is an error in
 * proto3 and a warning in proto2. Returning both the stripped and the unstripped form and
 * requiring all keys to be distinct covers every way the compiler may strip.
 */
export function enumValueConflictKeys(enumName: string, valueName: string): string[] {
  const value = fieldConflictKey(valueName);
  const prefix = fieldConflictKey(enumName);
  const keys = [value];
  if (prefix.length > 0 && value.startsWith(prefix) && value.length > prefix.length) {
    keys.push(value.slice(prefix.length));
  }
  return keys;
}

/**
 * Name of the synthetic oneof the compiler adds for a proto3 `optional` field: `_` + name,
 * prefixed with `X` until it collides with nothing (a field `_under` gets `X_under`).
 */
export function syntheticOneofName(fieldName: string, taken: (name: string) => boolean): string {
  let name = fieldName.startsWith('_') ? fieldName : '_' + fieldName;
  while (taken(name)) name = 'X' + name;
  return name;
}

/** Joins a scope and a simple name into a full name without the leading dot. */
export function qualify(scope: string, name: string): string {
  return scope === '' ? name : `${scope}.${name}`;
}

/** Makes `base` unique by appending 2, 3, ... until `isFree` accepts it. Deterministic. */
export function uniqueName(base: string, isFree: (candidate: string) => boolean): string {
  if (isFree(base)) return base;
  for (let n = 2; n < 10_000; n++) {
    const candidate = `${base}${n}`;
    if (isFree(candidate)) return candidate;
  }
  throw new SpecgateError('SG_INTERNAL', `no free name for ${base}`);
}

/**
 * Whether output file `name` cannot be written beside `other`: one names a folder the other needs
 * as a file (`gen/a` and `gen/a/b.txt`). No compiler can write both, and no rule of spec A says
 * which way it should fail, so generated responses never name such a pair (an equal pair is a
 * file named twice, which the rules do say).
 */
export function outputPathsClash(name: string, other: string): boolean {
  return name !== other && (other.startsWith(`${name}/`) || name.startsWith(`${other}/`));
}
