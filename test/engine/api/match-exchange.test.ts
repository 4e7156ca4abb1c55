import { describe, expect, it } from 'vitest';
import { matchOperation, methodsOnPath } from '../../../src/engine/api/match-exchange.js';
import type { ApiOperation, ApiTable } from '../../../src/engine/api/table.js';
import { notesTable } from './example-table.js';

describe('matchOperation', () => {
  const table = notesTable();

  it('matches a method and path to the operation, decoding path parameters', () => {
    const m = matchOperation(table, 'patch', 'http://h:1/notes/a%2Fb?x=1');
    expect(m.ok && m.operation.id).toBe('updateNote');
    expect(m.ok && m.params).toEqual({ note_id: 'a/b' });
  });

  it('prefers a literal segment to a parameter', () => {
    const m = matchOperation(table, 'POST', '/notes/batch');
    expect(m.ok && m.operation.id).toBe('batchCreateNotes');
    expect(m.ok && m.params).toEqual({});
    // GET on the same path is a note read: the parameter template lists GET
    const g = matchOperation(table, 'GET', '/notes/batch');
    expect(g.ok && g.operation.id).toBe('getNote');
  });

  it('tells a wrong method (with the methods listed) from an unknown path', () => {
    expect(matchOperation(table, 'PUT', '/notes')).toMatchObject({ ok: false, reason: 'wrong-method', allowed: ['GET', 'POST'] });
    expect(matchOperation(table, 'GET', '/nope')).toMatchObject({ ok: false, reason: 'unknown-path', allowed: [] });
    expect(matchOperation(table, 'GET', '/notes/a/b')).toMatchObject({ ok: false, reason: 'unknown-path' });
  });

  it('strips the base path prefix when given, and refuses a URL outside it', () => {
    const m = matchOperation(table, 'GET', 'http://h/api/v1/tags', 'http://h/api/v1/');
    expect(m.ok && m.operation.id).toBe('listTags');
    expect(matchOperation(table, 'GET', 'http://h/tags', 'http://h/api/v1')).toMatchObject({ ok: false, reason: 'unknown-path' });
  });

  it('lists every method any template allows on a concrete path', () => {
    expect(methodsOnPath(table, '/notes/batch').sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST']);
    expect(methodsOnPath(table, '/health')).toEqual(['GET']);
  });

  it('matches a segment that mixes a parameter with literal text, before the bare parameter', () => {
    const op = (id: string, method: string, path: string): ApiOperation => ({ id, method, path, parameters: [], requiredHeaders: {}, auth: false, responses: { '2XX': null } });
    const t: ApiTable = { ...table, operations: [op('get', 'GET', '/{shop}/sources/{id}'), op('patch', 'PATCH', '/{shop}/sources/{id}'), op('undelete', 'POST', '/{shop}/sources/{id}:undelete')] };
    const m = matchOperation(t, 'POST', '/7/sources/s%201:undelete');
    expect(m.ok && m.operation.id).toBe('undelete');
    expect(m.ok && m.params).toEqual({ shop: '7', id: 's 1' });
    const g = matchOperation(t, 'GET', '/7/sources/abc');
    expect(g.ok && g.params).toEqual({ shop: '7', id: 'abc' });
    // the literal text must be there, and the parameter must not be empty
    expect(matchOperation(t, 'POST', '/7/sources/abc:restore')).toMatchObject({ ok: false, reason: 'wrong-method', allowed: ['GET', 'PATCH'] });
    expect(matchOperation(t, 'POST', '/7/sources/:undelete')).toMatchObject({ ok: false, reason: 'wrong-method' });
  });

  it('sees operations added to a table after it first matched against it', () => {
    const t: ApiTable = { ...table, operations: [...table.operations] };
    expect(matchOperation(t, 'GET', '/reports/7')).toMatchObject({ ok: false, reason: 'unknown-path' });
    t.operations.push({ id: 'getReport', method: 'GET', path: '/reports/{report_id}', parameters: [], requiredHeaders: {}, auth: false, responses: { '2XX': null } });
    const m = matchOperation(t, 'GET', '/reports/7');
    expect(m.ok && m.operation.id).toBe('getReport');
    // a new list in place of the old one is read anew too
    t.operations = table.operations.filter((o) => o.id !== 'listTags');
    const gone = matchOperation(t, 'GET', '/tags');
    expect(gone.ok).toBe(false);
    expect(!gone.ok && gone.allowed).not.toContain('GET');
  });

  it('keeps a malformed escape from matching a parameter, and a plain segment as it is', () => {
    expect(matchOperation(table, 'GET', '/notes/%E0%A4%A')).toMatchObject({ ok: false });
    const m = matchOperation(table, 'GET', '/notes/plain-id');
    expect(m.ok && m.params).toEqual({ note_id: 'plain-id' });
  });
});
