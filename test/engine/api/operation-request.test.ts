import { describe, expect, it } from 'vitest';
import { resolveDeep } from '../../../src/engine/expressions.js';
import { operationRequest } from '../../../src/engine/api/operation-request.js';
import { notesTable } from './example-table.js';

const vars = { api_url: 'http://127.0.0.1:9/v1/', api_token: 'tok-1' };
const resolve = (v: unknown): unknown => resolveDeep(v, { vars, env: {} });

describe('operationRequest', () => {
  const table = notesTable();

  it('takes method, URL and credentials from the table, percent-encoding path parameters', () => {
    const spec = operationRequest(table, { operation: 'getNote', params: { note_id: 'a/b c' } }, resolve);
    expect(spec).toEqual({ method: 'GET', url: 'http://127.0.0.1:9/v1/notes/a%2Fb%20c', headers: { Authorization: 'Bearer tok-1' } });
  });

  it('keeps the request body, query and own method, and lets its own headers replace the table ones', () => {
    const spec = operationRequest(table, { operation: 'createNote', json: { title: 't' }, query: { x: 1 }, method: 'PUT', headers: { authorization: 'Bearer other' } }, resolve);
    expect(spec).toEqual({ method: 'PUT', url: 'http://127.0.0.1:9/v1/notes', json: { title: 't' }, query: { x: 1 }, headers: { authorization: 'Bearer other' } });
  });

  it("uses an operation's own base when it has one (an API spread over several hosts)", () => {
    const spread = { ...table, operations: table.operations.map((o) => (o.id === 'health' ? { ...o, base: '${api_token}.example' } : o)) };
    expect(operationRequest(spread, { operation: 'health' }, resolve).url).toBe('tok-1.example/health');
    expect(operationRequest(spread, { operation: 'listTags' }, resolve).url).toBe('http://127.0.0.1:9/v1/tags');
  });

  it("fills path parameters the request leaves out from the table's params:, and its own win", () => {
    const withShop = { ...table, params: { note_id: '${api_token}-default' } };
    expect(operationRequest(withShop, { operation: 'getNote' }, resolve).url).toBe('http://127.0.0.1:9/v1/notes/tok-1-default');
    expect(operationRequest(withShop, { operation: 'getNote', params: { note_id: 'n1' } }, resolve).url).toBe('http://127.0.0.1:9/v1/notes/n1');
    expect(() => operationRequest(table, { operation: 'getNote' }, resolve)).toThrow(/needs path parameter note_id/);
  });

  it('sends no credentials when the request says auth: false or the operation needs none', () => {
    expect(operationRequest(table, { operation: 'listNotes', auth: false }, resolve).headers).toEqual({});
    expect(operationRequest(table, { operation: 'health' }, resolve).headers).toEqual({});
  });

  it('sends the headers the operation requires, resolved, unless the request gives its own', () => {
    const withHeader = { ...table, operations: table.operations.map((o) => (o.id === 'listTags' ? { ...o, requiredHeaders: { 'Notes-Version': '${api_token}-v' } } : o)) };
    expect(operationRequest(withHeader, { operation: 'listTags' }, resolve).headers).toEqual({ Authorization: 'Bearer tok-1', 'Notes-Version': 'tok-1-v' });
    expect(operationRequest(withHeader, { operation: 'listTags', headers: { 'notes-version': '2' } }, resolve).headers).toEqual({ Authorization: 'Bearer tok-1', 'notes-version': '2' });
  });

  it('leaves a request by URL as it is', () => {
    const spec = { url: 'http://x/y', method: 'GET' };
    expect(operationRequest(table, spec, resolve)).toBe(spec);
  });

  it('refuses a missing path parameter, an unknown operation and a suite without a table', () => {
    expect(() => operationRequest(table, { operation: 'getNote' }, resolve)).toThrow(/needs path parameter note_id/);
    expect(() => operationRequest(table, { operation: 'getNotes' }, resolve)).toThrow(/no operation "getNotes"/);
    expect(() => operationRequest(undefined, { operation: 'getNote' }, resolve)).toThrow(/has no api\.yaml/);
  });
});
