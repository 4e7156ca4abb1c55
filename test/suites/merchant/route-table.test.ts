/**
 * suites/merchant/api.yaml against the spec's own endpoint tables (spec 001, "Endpoints",
 * "D. Merchant catalog API"): the same operations, row for row, in the same order, with the same
 * method and path template, plus the rules the spec states about batches and the version prefix.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { readApiTable, templateParams, type ApiTable, type TableOperation } from './api-table.js';
import { parseSpecRows, readSpecRows, SPEC_DOCUMENT, specDocumentPresent, specGroups, type SpecRow } from './spec-endpoints.js';

const spec = requirePeer('spec document 001', specDocumentPresent(), `expected at ${SPEC_DOCUMENT}, in the shared folder beside this repository`);
declarePeer(spec);

/** Every way a table row can differ from the spec row at the same position, one message each. */
function compareRows(rows: readonly SpecRow[], ops: readonly TableOperation[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(rows.length, ops.length); i++) {
    const row = rows[i];
    const op = ops[i];
    if (!row) {
      out.push(`api.yaml operation #${i + 1} ${op?.id ?? ''} (${op?.at ?? ''}) has no row in the spec (the spec has ${rows.length})`);
      continue;
    }
    const where = `row ${row.index} (spec line ${row.line}, section "${row.section}", operation "${row.operation}")`;
    if (!op) {
      out.push(`${where}: api.yaml has no operation #${i + 1} (it has ${ops.length}); the spec gives ${row.id} ${row.method} ${row.path}`);
      continue;
    }
    for (const field of ['id', 'method', 'path'] as const) {
      if (row[field] !== op[field]) out.push(`${where}: ${field} is ${JSON.stringify(row[field])} in the spec, ${JSON.stringify(op[field])} in api.yaml (${op.at})`);
    }
  }
  return out;
}

describe.skipIf(spec.skip)('merchant route table against spec part D', () => {
  let rows: SpecRow[] = [];
  let table: ApiTable = { base: '', operations: [] };
  beforeAll(() => {
    rows = readSpecRows();
    table = readApiTable();
  });

  // the spec's count guards the reading of its tables; api.yaml is held to what was read
  it('reads 135 rows from the spec tables, and as many operations from api.yaml', () => {
    expect(rows.length, 'rows in the part D endpoint tables of the spec').toBe(135);
    expect(table.operations.length, 'operations in suites/merchant/api.yaml').toBe(rows.length);
  });

  it('has the same operations as the spec, none missing and none extra', () => {
    const inTable = new Set(table.operations.map((op) => op.id));
    const inSpec = new Set(rows.map((r) => r.id));
    const missing = rows.filter((r) => !inTable.has(r.id)).map((r) => `row ${r.index} (spec line ${r.line}): ${r.id} ${r.method} ${r.path}`);
    const extra = table.operations.filter((op) => !inSpec.has(op.id)).map((op) => `${op.id} (${op.at})`);
    expect({ missing, extra }, `spec rows api.yaml lacks:\n${missing.join('\n')}\napi.yaml operations the spec lacks:\n${extra.join('\n')}`).toEqual({ missing: [], extra: [] });
  });

  it('has every spec row in the same position with the same id, method and path', () => {
    const differences = compareRows(rows, table.operations);
    expect(differences, differences.join('\n')).toEqual([]);
  });

  it('names each operation once', () => {
    const seen = new Map<string, TableOperation>();
    const twice = table.operations.flatMap((op) => {
      const first = seen.get(op.id);
      seen.set(op.id, op);
      return first ? [`${op.id} at ${op.at} and ${first.at}`] : [];
    });
    expect(twice, twice.join('\n')).toEqual([]);
  });

  it('uses only the groups the spec lists, and every one of them', () => {
    const groups = specGroups(readFileSync(SPEC_DOCUMENT, 'utf8'));
    const used = new Set(table.operations.map((op) => op.id.slice(0, op.id.lastIndexOf('.'))));
    const unknown = table.operations.filter((op) => !groups.includes(op.id.slice(0, op.id.lastIndexOf('.')))).map((op) => `${op.id} (${op.at})`);
    expect(unknown, `operations of a group the spec does not list:\n${unknown.join('\n')}`).toEqual([]);
    expect(groups.filter((g) => !used.has(g)), 'groups the spec lists but api.yaml has no operation of').toEqual([]);
  });

  it('sends every custombatch as POST /<group>/batch with no path parameter', () => {
    const batches = table.operations.filter((op) => op.id.endsWith('.custombatch'));
    expect(batches.length, 'custombatch operations').toBe(rows.filter((r) => r.id.endsWith('.custombatch')).length);
    const wrong = batches.flatMap((op) => {
      const group = op.id.slice(0, -'.custombatch'.length);
      const problems: string[] = [];
      if (op.method !== 'POST') problems.push(`method ${op.method}, not POST`);
      if (op.path !== `/${group}/batch`) problems.push(`path ${op.path}, not /${group}/batch`);
      if (op.pathParams.length) problems.push(`path parameters ${op.pathParams.join(', ')}`);
      return problems.map((p) => `operation #${op.index} ${op.id} (${op.at}): ${p}`);
    });
    expect(wrong, wrong.join('\n')).toEqual([]);
    // The converse: nothing else is routed like a batch.
    const lookalikes = table.operations.filter((op) => op.path.endsWith('/batch') && !op.id.endsWith('.custombatch')).map((op) => `${op.id} (${op.at})`);
    expect(lookalikes, 'operations routed to /<group>/batch that are not custombatch').toEqual([]);
  });

  it('puts the version prefix /content/v2.1 in the base and starts every path with /', () => {
    expect(table.base.endsWith('/content/v2.1'), `base is ${JSON.stringify(table.base)}`).toBe(true);
    const bad = table.operations.filter((op) => !op.path.startsWith('/') || op.path.startsWith('/content/')).map((op) => `operation #${op.index} ${op.id} (${op.at}): ${op.path}`);
    expect(bad, `paths that do not start with "/" or repeat the version prefix:\n${bad.join('\n')}`).toEqual([]);
  });

  it('lists no path parameter that its template lacks', () => {
    const stray = table.operations.filter((op) => op.strayPathParams.length).map((op) => `${op.id} (${op.at}): ${op.strayPathParams.join(', ')}`);
    expect(stray, stray.join('\n')).toEqual([]);
  });

  it('keeps the neutral names the spec uses for the business-profile operations', () => {
    const byId = new Map(table.operations.map((op) => [op.id, op]));
    expect(byId.get('liasettings.getaccessibleprofileaccounts')?.path).toBe('/{merchantId}/liasettings/{accountId}/accessibleprofileaccounts');
    expect(byId.get('liasettings.requestprofileaccess')?.path).toBe('/{merchantId}/liasettings/{accountId}/requestprofileaccess');
    // The spec replaced the brand abbreviation everywhere; it must not come back through the table.
    const branded = table.operations.filter((op) => /gmb/i.test(op.id) || /gmb/i.test(op.path)).map((op) => `${op.id} (${op.at})`);
    expect(branded, branded.join('\n')).toEqual([]);
  });
});

describe('comparing spec rows with table operations', () => {
  const text = [
    '## Endpoints',
    '### D. Merchant catalog API',
    '#### accounts',
    '| Operation | Method | Path | Purpose |',
    '|---|---|---|---|',
    '| get | GET | /{merchantId}/accounts/{accountId} | get |',
    '#### accounts.credentials, accounts.labels',
    '| Operation | Method | Path | Purpose |',
    '|---|---|---|---|',
    '| labels patch | PATCH | /accounts/{accountId}/labels/{labelId} | update |',
    '### E. Other',
    '| x | GET | /ignored | after part D |',
  ].join('\n');
  const rows = parseSpecRows(text);
  const op = (index: number, id: string, method: string, path: string): TableOperation => ({
    index, at: `api.yaml:${index}:3`, id, method, path, pathParams: templateParams(path), requiredQuery: [], strayPathParams: [],
  });

  it('derives ids from the section and the operation cell, and stops at part E', () => {
    expect(rows.map((r) => [r.id, r.method, r.path, r.line])).toEqual([
      ['accounts.get', 'GET', '/{merchantId}/accounts/{accountId}', 6],
      ['accounts.labels.patch', 'PATCH', '/accounts/{accountId}/labels/{labelId}', 10],
    ]);
  });

  it('finds nothing to report when the table follows the rows', () => {
    expect(compareRows(rows, [op(1, 'accounts.get', 'GET', '/{merchantId}/accounts/{accountId}'), op(2, 'accounts.labels.patch', 'PATCH', '/accounts/{accountId}/labels/{labelId}')])).toEqual([]);
  });

  it('names the row, the field and both values of a difference, and a missing operation', () => {
    const found = compareRows(rows, [op(1, 'accounts.get', 'PUT', '/{merchantId}/accounts/{accountId}')]);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^row 1 \(spec line 6, section "accounts", operation "get"\): method is "GET" in the spec, "PUT" in api\.yaml \(api\.yaml:1:3\)$/);
    expect(found[1]).toMatch(/^row 2 .*: api\.yaml has no operation #2/);
  });

  it('refuses a one-word operation in a section of several groups', () => {
    expect(() => parseSpecRows(text.replace('| labels patch |', '| patch |'))).toThrow(/cannot derive an operation ID from "patch"/);
  });
});
