import type { Ajv, ValidateFunction } from 'ajv';
import { createAjv, jsonSafe } from '../loader/schema-check.js';
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
    ajv ??= createAjv();
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  // lossless JSON integers arrive as bigint; validation sees them as numbers
  if (v(jsonSafe(value))) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`);
}
