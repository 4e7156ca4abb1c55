import { describe, expect, it } from 'vitest';
import { SpecgateErrorList } from '../../../src/errors.js';
import { loadSuite } from '../../../src/engine/loader/suite-loader.js';
import { Registry } from '../../../src/engine/registry.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { suiteDir } from './example-table.js';

const API = [
  'base: "${api_url}"',
  'resources:',
  '  thing: { id: id, param: thing_id, get: getThing }',
  'operations:',
  '  - id: getThing',
  '    method: GET',
  '    path: /things/{thing_id}',
  '    parameters: [{ name: thing_id, in: path }]',
  '    responses: { 200: null }',
  '',
].join('\n');

const REQS = '- { id: T-ONE, level: MUST, source: "spec.txt#One", text: one }\n';

function loadErrors(files: Record<string, string>): string[] {
  const s = suiteDir({ 'requirements.yaml': REQS, ...files });
  const module: SuiteModule = { name: 't', dir: s.dir };
  try {
    loadSuite(module, new Registry([module]), s.dir);
    return [];
  } catch (e) {
    if (e instanceof SpecgateErrorList) return e.errors.map((x) => x.message);
    throw e;
  } finally {
    s.remove();
  }
}

describe('API use in cases is checked at load', () => {
  it('accepts a request by operation ID and api.* checks that name what the table has', () => {
    const cases = [
      '- id: ok',
      '  requirements: [T-ONE]',
      '  steps:',
      '    - request: { operation: getThing, params: { thing_id: "7" } }',
      '      expect: { status: 200 }',
      '    - check: api.served',
      '      with: { operation: getThing }',
      '    - check: api.sequence',
      '      with: { resource: thing }',
      '',
    ].join('\n');
    expect(loadErrors({ 'api.yaml': API, 'cases/a.yaml': cases })).toEqual([]);
  });

  it('reports unknown operations, unknown and missing path parameters, unknown resources and checks with positions', () => {
    const cases = [
      '- id: bad',
      '  requirements: [T-ONE]',
      '  steps:',
      '    - request: { operation: getThings, params: { thing_id: "7" } }',
      '      expect: { status: 200 }',
      '    - request: { operation: getThing, params: { thing: "7" } }',
      '      expect: { status: 200 }',
      '    - check: api.served',
      '      with: { operation: dropThing }',
      '    - check: api.sequence',
      '      with: { resource: things }',
      '    - check: api.servd',
      '      with: { operation: getThing }',
      '',
    ].join('\n');
    const errors = loadErrors({ 'api.yaml': API, 'cases/a.yaml': cases });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/a\.yaml:4:29: no operation "getThings" in .*did you mean getThing\?/),
        expect.stringMatching(/a\.yaml:6:56: operation getThing \(\/things\/\{thing_id\}\) has no path parameter "thing"/),
        expect.stringMatching(/a\.yaml:6:16: operation getThing .* needs path parameter thing_id under params:/),
        expect.stringMatching(/a\.yaml:9:26: no operation "dropThing"/),
        expect.stringMatching(/a\.yaml:11:25: no resource "things"/),
        expect.stringMatching(/a\.yaml:12:14: no check named "api\.servd"/),
      ]),
    );
    expect(errors).toHaveLength(6);
  });

  it('refuses a request by operation ID in a suite without api.yaml', () => {
    const cases = '- id: no-table\n  requirements: [T-ONE]\n  steps:\n    - request: { operation: getThing }\n      expect: { status: 200 }\n';
    expect(loadErrors({ 'cases/a.yaml': cases })).toEqual([expect.stringMatching(/a\.yaml:4:29: names operation "getThing", but the suite has no api\.yaml/)]);
  });
});
