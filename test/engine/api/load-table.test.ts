import { describe, expect, it } from 'vitest';
import type { SpecgateError } from '../../../src/errors.js';
import { loadApiTable } from '../../../src/engine/api/load-table.js';
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
        '    path: /things/{thing_id}',
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
        expect.stringMatching(/api\.yaml:7:11: path parameter \{thing_id\} is not listed under parameters/),
        expect.stringMatching(/api\.yaml:8:16: no schema named "demo\/nothing"/),
        expect.stringMatching(/api\.yaml:9:9: duplicate operation id "getThing"/),
        expect.stringMatching(/api\.yaml:12:45: path parameter "ghost" does not appear in \/others\/\{other\}/),
        expect.stringMatching(/api\.yaml:3:60: no operation "dropThing" in this table/),
      ]),
    );
    expect(errors).toHaveLength(5);
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
