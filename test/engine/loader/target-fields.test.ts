import { describe, expect, it } from 'vitest';
import { ambiguousFieldNames, fieldNameProblems, sentFieldNames, sentJsonKeys, specFieldNames } from '../../../src/engine/loader/target-fields.js';

const SCHEMA = {
  type: 'object',
  required: ['id', 'performed_via_platform_app'],
  properties: { id: {}, actor: { type: 'object', properties: { avatar_service_id: { type: 'string' } } } },
  definitions: { app: { properties: { slug: {} } } },
};

describe('the field names a profile may map', () => {
  it('are every property and required name of the suite\'s schemas, at any depth', () => {
    expect([...specFieldNames([SCHEMA])].sort()).toEqual(['actor', 'avatar_service_id', 'id', 'performed_via_platform_app', 'slug']);
  });

  it('and the form fields and query parameters the cases send, fragments merged', () => {
    const cases = [
      { steps: [{ request: { method: 'POST', url: 'u', form: { client_id: 'x', device_code: 'y' } } }, { wait: 1 }] },
      { steps: [{ request: { url: 'u', query: { per_page: 5 } } }, { request: { url: 'u', json: { body_only: 1 } } }] },
    ];
    expect([...sentFieldNames(cases)].sort()).toEqual(['client_id', 'device_code', 'per_page']);
  });

  it('a name none of them has is a problem at its key, with the nearest names', () => {
    const loc = { file: 'p.yaml', line: 4, column: 7 };
    const section = { vars: {}, fieldNames: { avatar_servce_id: 'avatar_id', id: 'key' }, locations: { var: {}, field: { avatar_servce_id: loc } } };
    const problems = fieldNameProblems('events', section, specFieldNames([SCHEMA]), (l) => (l ? `${l.file}:${l.line}:${l.column}: ` : ''));
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      ['SG_CONFIG', 'p.yaml:4:7: fields.avatar_servce_id names a field no schema of suite events has, nor a form or query its cases send; did you mean "avatar_service_id"? the keys of fields: are the spec\'s field names, their values the target\'s'],
    ]);
  });

  it('warns of a mapped name the cases send both as a JSON key and as a form or query key (fields: renames both)', () => {
    const cases = [
      { steps: [{ request: { method: 'POST', url: 'u', form: { client_id: 'x' } } }, { request: { url: 'u', query: { page: 2, scope: 's' } } }] },
      { steps: [{ request: { method: 'POST', url: 'u', json: { client_id: 'x', nested: [{ page: 1 }] } } }, { wait: 1 }] },
    ];
    expect([...sentJsonKeys(cases)].sort()).toEqual(['client_id', 'nested', 'page']);
    // scope is a query key only, nested a JSON key only: unambiguous
    expect(ambiguousFieldNames({ fieldNames: { client_id: 'clientId', page: 'p', scope: 'scopes', nested: 'n' } }, cases)).toEqual(['client_id', 'page']);
    expect(ambiguousFieldNames({ fieldNames: { scope: 'scopes' } }, cases)).toEqual([]);
    expect(ambiguousFieldNames({}, cases)).toEqual([]);
  });
});
