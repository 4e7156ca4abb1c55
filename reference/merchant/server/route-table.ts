import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecgateError } from '../../../src/errors.js';
import { loadApiTable, type SchemaNames } from '../../../src/engine/api/load-table.js';
import type { ApiTable } from '../../../src/engine/api/table.js';
import { fromRoot } from '../../../src/paths.js';

let cached: ApiTable | undefined;

/**
 * The merchant suite's route table (suites/merchant/api.yaml), loaded and checked by the
 * engine's own loader, so that the service routes exactly the operations the suite judges.
 * Loaded once per process; callers that alter it get their own copy (see server.ts `routes`).
 */
export function merchantTable(): ApiTable {
  if (cached) return cached;
  const dir = fromRoot('suites', 'merchant');
  const errors: SpecgateError[] = [];
  const table = loadApiTable({ name: 'merchant', dir }, schemaFiles(join(dir, 'schemas')), (f) => f, errors);
  if (!table || errors.length) throw new SpecgateError('SG_SUITE_SCHEMA', `the merchant route table does not load, so the reference service cannot route:\n${errors.map((e) => e.message).join('\n')}`);
  cached = table;
  return table;
}

/** The suite's request schemas by qualified name (`merchant/<file>`), as the table names them. */
function schemaFiles(dir: string): SchemaNames {
  const schemas = new Map<string, object>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    schemas.set(`merchant/${file.slice(0, -'.json'.length)}`, JSON.parse(readFileSync(join(dir, file), 'utf8')) as object);
  }
  return { hasSchema: (name) => schemas.has(name), schema: (name) => schemas.get(name) };
}

/**
 * The path prefix the table's base puts before every operation path: the base expression
 * without its leading `${merchant_url}` (`/content/v2.1`).
 */
export function basePath(table: ApiTable): string {
  return table.base.replace(/^\$\{[^}]*\}/, '').replace(/\/+$/, '');
}
