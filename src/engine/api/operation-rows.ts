import type { ApiOperation, ApiTable } from './table.js';

/**
 * `each: { operations: {...} }`: a case template expanded once per operation of the suite's API
 * table, so route checks are generated from the table instead of written out. The filter keeps
 * operations by method, by whether they need credentials, page, take a batch, or by ID.
 */
export interface OperationFilter {
  methods?: string[];
  auth?: boolean;
  paging?: boolean;
  batch?: boolean;
  /** Only these operation IDs. */
  only?: string[];
  /** All but these operation IDs. */
  except?: string[];
}

/**
 * One row per operation: `${row.id}` (kebab-case of the operation ID), `${row.key}` (the same in
 * capitals, for a requirement ID per operation: `MERCHANT-OP-${row.key}`), `${row.op}`,
 * `${row.method}`, `${row.path}`.
 */
export function operationRows(table: ApiTable, filter: OperationFilter): Record<string, unknown>[] {
  return table.operations.filter((op) => keeps(op, filter)).map((op) => ({ id: kebab(op.id), key: kebab(op.id).toUpperCase(), op: op.id, method: op.method, path: op.path }));
}

function keeps(op: ApiOperation, f: OperationFilter): boolean {
  if (f.methods && !f.methods.map((m) => m.toUpperCase()).includes(op.method.toUpperCase())) return false;
  if (f.auth !== undefined && op.auth !== f.auth) return false;
  if (f.paging !== undefined && Boolean(op.paging) !== f.paging) return false;
  if (f.batch !== undefined && Boolean(op.batch) !== f.batch) return false;
  if (f.only && !f.only.includes(op.id)) return false;
  if (f.except?.includes(op.id)) return false;
  return true;
}

/** `batchCreateNotes` -> `batch-create-notes`. */
export function kebab(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}
