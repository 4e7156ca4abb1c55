import { describe, expect, it } from 'vitest';
import type { SpecgateError } from '../../../src/errors.js';
import { loadApiTable } from '../../../src/engine/api/load-table.js';
import { isListedStatus, isSuccess, responseSchema, successLabel, type ApiOperation, type ApiTable } from '../../../src/engine/api/table.js';
import { notesTable, registryFor, suiteDir } from './example-table.js';

function load(apiYaml: string, schemas: Record<string, string> = { 'schemas/thing.json': '{"type":"object"}' }): { table: unknown; errors: string[] } {
  const s = suiteDir({ 'api.yaml': apiYaml, ...schemas });
  try {
    const errors: SpecgateError[] = [];
    const table = loadApiTable({ name: 'demo', dir: s.dir }, registryFor('demo', s.dir), () => 'api.yaml', errors);
    return { table, errors: errors.map((e) => `${e.code} ${e.message}`) };
  } finally {
    s.remove();
  }
}

describe('loadApiTable', () => {
  it('loads the notes example: ten operations, defaults filled in, schema names qualified', () => {
    const t = notesTable();
    expect(t.operations.map((o) => o.id)).toHaveLength(10);
    const list = t.operations.find((o) => o.id === 'listNotes');
    expect(list?.paging).toMatchObject({ style: 'cursor', limit: 'limit', position: 'cursor', default: 20, max: 50, overMax: 'clamp' });
    expect(list?.responses).toEqual({ 200: 'notes/note-page', 400: 'notes/error', 401: 'notes/error' });
    expect(t.operations.find((o) => o.id === 'health')?.auth).toBe(false);
    expect(t.operations.find((o) => o.id === 'getNote')?.auth).toBe(true);
    expect(t.auth).toEqual({ header: 'Authorization', value: 'Bearer ${api_token}', status: 401 });
    expect(t.resources['note']).toMatchObject({ param: 'note_id', missingId: 'specgate-missing-0' });
    expect(Object.keys(t.schemas)).toContain('notes/note-input');
  });

  it('reports a schema violation at its file:line:column', () => {
    const { table, errors } = load('base: x\noperations:\n  - id: a\n    method: GET\n    path: /a\n    responses: { 200: null }\n    colour: red\n');
    expect(table).toBeUndefined();
    expect(errors).toEqual([expect.stringMatching(/^SG_SUITE_SCHEMA api\.yaml:7:5: .*unknown key "colour"/)]);
  });

  it('reports every cross-reference problem with its position', () => {
    const { table, errors } = load(
      [
        'base: "${api_url}"',
        'resources:',
        '  thing: { id: id, param: thing_id, get: getThing, delete: dropThing }',
        'operations:',
        '  - id: getThing',
        '    method: GET',
        '    path: /things/{thing_id}/x/{thing_id}',
        '    responses: { 200: thing, 404: nothing }',
        '  - id: getThing',
        '    method: GET',
        '    path: /others/{other}',
        '    parameters: [{ name: other, in: path }, { name: ghost, in: path }]',
        '    responses: { 200: null }',
        '',
      ].join('\n'),
    );
    expect(table).toBeUndefined();
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/api\.yaml:7:11: path parameter \{thing_id\} appears twice/),
        expect.stringMatching(/api\.yaml:8:16: no schema named "demo\/nothing"/),
        expect.stringMatching(/api\.yaml:9:9: duplicate operation id "getThing"/),
        expect.stringMatching(/api\.yaml:12:45: path parameter "ghost" does not appear in \/others\/\{other\}/),
        expect.stringMatching(/api\.yaml:3:60: no operation "dropThing" in this table/),
      ]),
    );
    expect(errors).toHaveLength(5);
  });

  it('reads the table forms an API without documented payloads needs', () => {
    const { table, errors } = load(
      [
        'base: "${root}/v1"',
        'goneStatus: 4XX',
        'params: { shopId: "${shop_id}" }',
        'resources:',
        '  source: { id: sourceId, param: sourceId, create: sources.create, get: sources.get, list: sources.list, items: $.sources }',
        'operations:',
        '  - { id: sources.create, method: POST, path: "/{shopId}/sources", responses: { 2XX: null } }',
        '  - { id: sources.get, method: GET, path: "/{shopId}/sources/{sourceId}", responses: { 2XX: null, 404: thing } }',
        '  - { id: sources.list, method: GET, path: "/{shopId}/sources", responses: { 2XX: null } }',
        '  - { id: sources.undelete, method: POST, path: "/{shopId}/sources/{sourceId}:undelete", responses: { 2XX: null } }',
        '  - { id: sources.batch, method: POST, path: /sources/batch, responses: { 2XX: null }, batch: { items: $.entries, item: thing, results: $.entries } }',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
    const t = table as ApiTable;
    expect(t.goneStatus).toBe('4XX');
    expect(t.params).toEqual({ shopId: '${shop_id}' });
    expect(t.resources['source']?.items).toBe('$.sources');
    const undelete = t.operations.find((o) => o.id === 'sources.undelete');
    // path parameters the operation does not list are plain string ones
    expect(undelete?.parameters).toEqual([
      { name: 'shopId', in: 'path', type: 'string' },
      { name: 'sourceId', in: 'path', type: 'string' },
    ]);
    expect(t.operations.find((o) => o.id === 'sources.batch')?.batch).toEqual({ items: '$.entries', item: 'demo/thing', results: '$.entries', overMaxStatus: 400 });
    const get = t.operations.find((o) => o.id === 'sources.get') as ApiOperation;
    expect([isSuccess(get, 200), isSuccess(get, 204), isSuccess(get, 404), isListedStatus(get, 404), isListedStatus(get, 500)]).toEqual([true, true, false, true, false]);
    expect([responseSchema(get, 204), responseSchema(get, 404), responseSchema(get, 409)]).toEqual([null, 'demo/thing', undefined]);
    expect(successLabel(get)).toBe('any 2xx');
  });

  it('is absent when the suite has no api.yaml', () => {
    const errors: SpecgateError[] = [];
    const s = suiteDir({ 'requirements.yaml': '[]' });
    try {
      expect(loadApiTable({ name: 'x', dir: s.dir }, registryFor('x', s.dir), (f) => f, errors)).toBeUndefined();
      expect(errors).toEqual([]);
    } finally {
      s.remove();
    }
  });
});
