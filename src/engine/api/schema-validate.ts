import { jsonSafe, schemaValidator } from '../loader/schema-check.js';
import { schemaFindings, type SchemaFindings } from '../schema-sentences.js';
import type { ApiTable } from './table.js';

/**
 * Problems of `value` against a schema the table names, as plain sentences (empty when it
 * satisfies it, or when the name is null: the table does not check that body).
 */
export function schemaProblems(table: ApiTable, name: string | null | undefined, value: unknown): string[] {
  return tableSchemaFindings(table, name, value).problems;
}

/** {@link schemaProblems} with ajv's own errors beside the sentences, for the JSON report. */
export function tableSchemaFindings(table: ApiTable, name: string | null | undefined, value: unknown): SchemaFindings {
  if (!name) return { problems: [], raw: [] };
  const schema = table.schemas[name];
  if (!schema) return { problems: [`the table names schema "${name}", which is not loaded`], raw: [] };
  const v = schemaValidator(name, schema);
  // lossless JSON integers arrive as bigint; validation sees them as numbers
  const safe = jsonSafe(value);
  if (v(safe)) return { problems: [], raw: [] };
  return schemaFindings(v.errors, safe, schema);
}
