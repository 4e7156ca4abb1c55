import { Ajv, type ValidateFunction } from 'ajv';
import type { ApiTable } from './table.js';

let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Problems of `value` against a schema the table names (empty when it satisfies it, or when
 * the name is null: the table does not check that body).
 */
export function schemaProblems(table: ApiTable, name: string | null | undefined, value: unknown): string[] {
  if (!name) return [];
  const schema = table.schemas[name];
  if (!schema) return [`the table names schema "${name}", which is not loaded`];
  let v = compiled.get(schema);
  if (!v) {
    ajv ??= new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  if (v(jsonSafe(value))) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`);
}

/** Validation sees bigints (lossless JSON integers) as numbers. */
function jsonSafe(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
  return v;
}
