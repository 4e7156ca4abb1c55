import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCheck } from '../../src/engine/checks/contract.js';
import { loadSuite } from '../../src/engine/loader/suite-loader.js';
import type { LoadedSuite } from '../../src/engine/model.js';
import { Registry } from '../../src/engine/registry.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { SpecgateError, SpecgateErrorList } from '../../src/errors.js';

/**
 * The suite contract the loader checks before anything runs: typed checks' arguments,
 * attributions and set variables, `${var}` reads against what is set before them, and the
 * table-driven forms (suite.yaml vars, fragments, defaults; each: rows; schema files).
 */
const root = mkdtempSync(join(tmpdir(), 'specgate-contract-'));
beforeAll(() => {
  process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const REQUIREMENTS = ['T-ONE', 'T-TWO', 'T-THREE']
  .map((id) => `- id: ${id}\n  level: MUST\n  source: t.txt#x\n  text: rule ${id}\n`)
  .join('');

const SUITE_YAML = `vars:
  base: { description: the base URL }
  key: { description: a credential, secret: true }
fragments:
  get-thing:
    request: { method: GET, url: "\${base}/thing", headers: { X-A: a, X-B: b }, accept: json }
  login:
    steps:
      - check: t.login
`;

const login = defineCheck<{ requirement?: string }>({
  description: 'logs in and sets ${session}',
  args: { type: 'object', additionalProperties: false, properties: { requirement: { type: 'string' } } },
  judges: 'case',
  sets: ['session'],
  async run() {},
});
const probe = defineCheck<{ n: number; label?: string }>({
  description: 'judges T-ONE and T-TWO',
  args: { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'integer' }, label: { type: 'string' } } },
  judges: ['T-ONE', 'T-TWO'],
  async run() {},
});

let n = 0;
function suiteWith(cases: string, extra: Record<string, string> = {}): SuiteModule {
  const dir = join(root, `s${n++}`);
  mkdirSync(join(dir, 'cases'), { recursive: true });
  writeFileSync(join(dir, 'requirements.yaml'), REQUIREMENTS);
  writeFileSync(join(dir, 'suite.yaml'), SUITE_YAML);
  writeFileSync(join(dir, 'cases', 'a.yaml'), cases);
  for (const [name, text] of Object.entries(extra)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return { name: 't', dir, checks: { login, probe } };
}

function load(m: SuiteModule): LoadedSuite {
  return loadSuite(m, new Registry([m]), m.dir);
}

function messages(m: SuiteModule): string[] {
  try {
    load(m);
  } catch (e) {
    if (e instanceof SpecgateErrorList) return e.errors.map((x) => x.message);
    if (e instanceof SpecgateError) return [e.message];
    throw e;
  }
  throw new Error('the suite loaded, but it should not have');
}

describe('typed check contracts', () => {
  it('accepts arguments that fit the schema, and expressions where a number is due', () => {
    const s = load(suiteWith(`- id: a\n  requirements: [T-ONE]\n  vars: { count: 3 }\n  steps:\n    - check: t.probe\n      with: { n: "\${count}" }\n`));
    expect(s.cases.map((c) => c.id)).toEqual(['a']);
  });

  it('names an unknown argument at its key', () => {
    expect(messages(suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - check: t.probe\n      with: { n: 1, lable: x }\n`))).toEqual([
      'cases/a.yaml:5:21: t.probe: unknown argument "lable" (check its spelling)',
    ]);
  });

  it('names a missing argument and a value of the wrong type', () => {
    expect(messages(suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - check: t.probe\n      with: { label: 5 }\n`))).toEqual([
      'cases/a.yaml:5:13: t.probe: missing required argument "n"',
      'cases/a.yaml:5:22: t.probe: must be string',
    ]);
  });

  it('refuses an attribution to a requirement the case does not list, or the check cannot judge', () => {
    expect(messages(suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - check: t.login\n      with: { requirement: T-TWO }\n    - request: { url: "\${base}" }\n      expect: { status: 200 }\n`))).toEqual([
      `cases/a.yaml:5:28: "T-TWO" is not one of this case's requirements (T-ONE)`,
    ]);
  });

  it('refuses a check registered without a contract', () => {
    const m = suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - request: { url: "\${base}" }\n      expect: { status: 200 }\n`);
    const bare = (async () => undefined) as unknown as typeof login;
    expect(messages({ ...m, checks: { ...m.checks, bare } })).toEqual([
      'suite t: check "bare" has no contract; declare it with defineCheck({ description, args, judges, sets, run }) (src/engine/checks/contract.ts)',
    ]);
  });

  it('refuses a case requirement no step can judge', () => {
    expect(messages(suiteWith(`- id: a\n  requirements: [T-ONE, T-THREE]\n  steps:\n    - check: t.probe\n      with: { n: 1 }\n`))).toEqual([
      'cases/a.yaml:2:17: no step of case "a" judges T-THREE: add an expect: (or a check that judges it), or drop it from requirements',
    ]);
  });
});

describe('variables', () => {
  it('knows declared target vars, case vars, captures, sets and what a check sets', () => {
    const cases = `- id: a
  requirements: [T-ONE]
  vars: { x: 1 }
  steps:
    - use: login
    - set: { y: "\${x}" }
    - request: { url: "\${base}/\${session}/\${y}", headers: { K: "\${key}" } }
      expect: { status: 200 }
      capture: { z: $.z }
    - request: { url: "\${base}/\${z}" }
      expect: { status: 200 }
`;
    expect(load(suiteWith(cases)).cases[0]?.steps).toHaveLength(4);
  });

  it('names a read of a variable nothing set, with the near names it may mean', () => {
    expect(messages(suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - use: login\n    - request: { url: "\${base}/\${sesion}" }\n      expect: { status: 200 }\n`))).toEqual([
      'cases/a.yaml:5:23: reads ${sesion}, which nothing sets before this step; did you mean ${session}?',
    ]);
  });

  it('refuses a read before the step that captures it', () => {
    const [m] = messages(suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - request: { url: "\${base}/\${z}" }\n      expect: { status: 200 }\n      capture: { z: $.z }\n`));
    expect(m).toMatch(/^cases\/a\.yaml:4:23: reads \$\{z\}, which nothing sets before this step/);
  });

  it('refuses needs: of an undeclared variable', () => {
    expect(messages(suiteWith(`- id: a\n  requirements: [T-ONE]\n  needs: [client]\n  steps:\n    - request: { url: "\${base}" }\n      expect: { status: 200 }\n`))).toEqual([
      'cases/a.yaml:3:10: needs "client", which suite.yaml does not declare under vars:',
    ]);
  });
});

describe('fragments, defaults and rows', () => {
  it('merges a request fragment under the request, header by header', () => {
    const s = load(suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - request: { use: get-thing, headers: { X-B: mine } }\n      expect: { status: 200 }\n`));
    expect(s.cases[0]?.steps[0]).toEqual({
      request: { method: 'GET', url: '${base}/thing', headers: { 'X-A': 'a', 'X-B': 'mine' }, accept: 'json' },
      expect: { status: 200 },
    });
  });

  it('inlines the step fragments a step fragment uses, to any depth', () => {
    const suiteYaml = `${SUITE_YAML}  signed-in:
    steps:
      - use: login
      - request: { use: get-thing }
        expect: { status: 200 }
  twice:
    steps:
      - use: signed-in
      - use: login
`;
    const s = load(suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - use: twice\n`, { 'suite.yaml': suiteYaml }));
    expect(s.cases[0]?.steps).toEqual([
      { check: 't.login' },
      { request: { method: 'GET', url: '${base}/thing', headers: { 'X-A': 'a', 'X-B': 'b' }, accept: 'json' }, expect: { status: 200 } },
      { check: 't.login' },
    ]);
  });

  it('refuses a step fragment that uses itself, naming the chain', () => {
    const suiteYaml = `${SUITE_YAML}  ping:
    steps:
      - use: pong
  pong:
    steps:
      - use: ping
`;
    expect(messages(suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - use: ping\n`, { 'suite.yaml': suiteYaml })).join('\n')).toMatch(/step fragment "ping" uses itself \(ping -> pong -> ping\)/);
  });

  it('names an unknown fragment with the known ones', () => {
    expect(messages(suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - request: { use: get-thin }\n      expect: { status: 200 }\n`))).toEqual([
      'cases/a.yaml:4:23: no request fragment named "get-thin" in suite.yaml; known: get-thing',
    ]);
  });

  it('expands each: rows into cases with stable IDs and typed values', () => {
    const cases = `- id: code-\${row.code}
  requirements: ["\${row.req}"]
  each:
    - { code: 200, req: T-ONE }
    - { code: 404, req: T-TWO }
  steps:
    - request: { url: "\${base}/status/\${row.code}" }
      expect: { status: "\${row.code}" }
- id: named
  requirements: [T-THREE]
  each: [{ id: first, n: 1 }, { id: second, n: 2 }]
  steps:
    - check: t.login
    - request: { url: "\${base}/\${row.n}" }
      expect: { status: 200 }
`;
    const s = load(suiteWith(cases));
    expect(s.cases.map((c) => [c.id, c.requirements])).toEqual([
      ['code-200', ['T-ONE']],
      ['code-404', ['T-TWO']],
      ['named-first', ['T-THREE']],
      ['named-second', ['T-THREE']],
    ]);
    expect(s.cases[1]?.steps[0]).toEqual({ request: { url: '${base}/status/404' }, expect: { status: 404 } });
  });

  it('names a row without a field the case reads, and a row without an id', () => {
    const cases = `- id: code-\${row.code}\n  requirements: [T-ONE]\n  each: [{ code: 1 }, { cod: 2 }]\n  steps:\n    - request: { url: "\${base}/\${row.code}" }\n      expect: { status: 200 }\n- id: x\n  requirements: [T-ONE]\n  each: [{ n: 1 }]\n  steps:\n    - request: { url: "\${base}" }\n      expect: { status: 200 }\n`;
    const m = messages(suiteWith(cases));
    expect(m).toContain('cases/a.yaml:3:23: this row has no field "code", which the case reads as ${row.code}');
    expect(m).toContain('cases/a.yaml:9:10: a row needs a kebab-case "id" (or put ${row.field} placeholders in the case id) so that each expanded case has a stable ID');
  });

  it('checks each expanded row against the case schema, placeholders standing in until then', () => {
    const cases = `- id: bytes\n  requirements: [T-ONE]\n  each: [{ id: good, hex: "0a ff" }, { id: bad, hex: zz }]\n  steps:\n    - exec: { stdin: { hex: "\${row.hex}" } }\n      expect: { exitCode: 0 }\n`;
    expect(messages(suiteWith(cases))).toEqual(['cases/a.yaml:5:29: with row 1 of each: steps.0.exec.stdin.hex: "zz" does not match the form ^(([0-9a-fA-F]{2}|\\s)*|\\$\\{[^}]+\\})$']);
  });

  it('applies suite defaults', () => {
    const dir = suiteWith(`- id: a\n  requirements: [T-ONE]\n  tags: [mine]\n  steps:\n    - request: { url: "\${base}" }\n      expect: { status: 200 }\n`);
    writeFileSync(join(dir.dir, 'suite.yaml'), `${SUITE_YAML}defaults: { timeoutMs: 5000, tags: [slow] }\n`);
    const c = load(dir).cases[0];
    expect([c?.timeoutMs, c?.tags]).toEqual([5000, ['mine', 'slow']]);
  });

  it('registers schema files as <suite>/<name>', () => {
    const m = suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - request: { url: "\${base}" }\n      expect: { schema: t/thing }\n`, {
      'schemas/thing.json': '{ "type": "object", "required": ["id"] }',
    });
    const registry = new Registry([m]);
    loadSuite(m, registry, m.dir);
    expect(registry.validateSchema('t/thing', { id: 1 })).toEqual([]);
    expect(registry.validateSchema('t/thing', {})).toEqual(['the value lacks id']);
  });

  it('checks suite.yaml against its schema', () => {
    const m = suiteWith(`- id: a\n  requirements: [T-ONE]\n  steps:\n    - request: { url: "x" }\n      expect: { status: 200 }\n`);
    writeFileSync(join(m.dir, 'suite.yaml'), 'vars:\n  base: { descripton: typo }\n');
    expect(messages(m)).toEqual(['suite.yaml:2:9: vars.base: missing required key "description"', 'suite.yaml:2:11: vars.base: unknown key "descripton" (not allowed here; check its spelling)']);
  });
});
