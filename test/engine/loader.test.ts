import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCheck } from '../../src/engine/checks/contract.js';
import { coverageGaps, loadSuite } from '../../src/engine/loader/suite-loader.js';
import { parseYaml } from '../../src/engine/loader/yaml-source.js';
import { Registry } from '../../src/engine/registry.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { SpecgateError, SpecgateErrorList } from '../../src/errors.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-loader-'));
// keep the parse cache of these throw-away files out of the project's cache folder
beforeAll(() => {
  process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const REQUIREMENTS = `- id: T-ONE
  level: MUST
  source: t.txt#One
  text: the first rule
- id: T-TWO
  level: SHOULD
  source: t.txt#Two
  text: the second rule
- id: T-OUT
  level: MAY
  source: t.txt#Out
  text: cannot be seen
  excluded: not observable
- id: T-GAP
  level: MAY
  source: t.txt#Gap
  text: nobody checks this
`;

const GOOD = `- id: first-case
  requirements: [T-ONE]
  steps:
    - request: { url: "\${base}/x" }
      expect: { status: 200, body: { id: { $equals: 9007199254740993 } } }

- id: second-case
  requirements: [T-ONE, T-TWO]
  property: { generate: t.num, oracle: t.twice }
  steps:
    - check: t.probe
      with: { n: "\${case}" }
`;

let n = 0;
/** A suite folder with the given case files; returns a module for it. */
function suiteWith(files: Record<string, string>, requirements = REQUIREMENTS): SuiteModule {
  const dir = join(root, `s${n++}`);
  mkdirSync(join(dir, 'cases'), { recursive: true });
  writeFileSync(join(dir, 'requirements.yaml'), requirements);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'cases', name), text);
  return {
    name: 't',
    dir,
    checks: { probe: defineCheck({ description: 'a probe', args: { type: 'object' }, judges: 'case', async run() {} }) },
    generators: { num: () => fc.nat() },
    oracles: { twice: (v) => Number(v) * 2 },
    codecs: { Bytes: { encode: () => new Uint8Array(), decode: () => null } },
    schemas: { thing: { type: 'object' } },
  };
}

function load(m: SuiteModule): ReturnType<typeof loadSuite> {
  return loadSuite(m, new Registry([m]), m.dir);
}

/** Every error message of a load that must fail. */
function errorsOf(m: SuiteModule): SpecgateError[] {
  try {
    load(m);
  } catch (e) {
    if (e instanceof SpecgateErrorList) return [...e.errors];
    if (e instanceof SpecgateError) return [e];
    throw e;
  }
  throw new Error('the suite loaded, but it should not have');
}
const messages = (m: SuiteModule): string[] => errorsOf(m).map((e) => e.message);

describe('a valid suite', () => {
  it('loads requirements and cases with their positions', () => {
    const s = load(suiteWith({ 'a.yaml': GOOD }));
    expect(s.requirements.map((r) => [r.id, r.level, r.location?.line])).toEqual([
      ['T-ONE', 'MUST', 1],
      ['T-TWO', 'SHOULD', 5],
      ['T-OUT', 'MAY', 9],
      ['T-GAP', 'MAY', 14],
    ]);
    expect(s.cases.map((c) => [c.id, `${c.location.file}:${c.location.line}:${c.location.column}`])).toEqual([
      ['first-case', 'cases/a.yaml:1:3'],
      ['second-case', 'cases/a.yaml:7:3'],
    ]);
  });

  it('keeps integer literals beyond 2^53 exact (bigint) and the rest plain numbers', () => {
    const s = load(suiteWith({ 'a.yaml': GOOD }));
    const step = s.cases[0]?.steps[0];
    expect(step && 'expect' in step ? step.expect : undefined).toEqual({ status: 200, body: { id: { $equals: 9007199254740993n } } });
    expect(parseYaml('x.yaml', 'a: 5\nb: -9007199254740993\nc: 1.5\n').data).toEqual({ a: 5, b: -9007199254740993n, c: 1.5 });
  });

  it('gives the same cases and positions when loaded again (from the parse cache)', () => {
    const m = suiteWith({ 'a.yaml': GOOD.replace('9007199254740993', '7') });
    const once = load(m);
    const twice = load(m);
    expect(twice).toEqual(once);
  });

  it('names a cached file by where it is now, not where the same content was seen first', () => {
    const text = GOOD.replace('9007199254740993', '8');
    load(suiteWith({ 'a.yaml': text }));
    const s = load(suiteWith({ 'other-name.yaml': text }));
    expect(s.cases[0]?.location.file).toBe('cases/other-name.yaml');
  });

  it('reports requirements with neither a case nor an exclusion as coverage gaps', () => {
    expect(coverageGaps(load(suiteWith({ 'a.yaml': GOOD }))).map((r) => r.id)).toEqual(['T-GAP']);
  });
});

describe('errors name file:line:column and the rule', () => {
  it('YAML syntax', () => {
    const [e, ...rest] = errorsOf(suiteWith({ 'a.yaml': '- id: x\n  description: a: b\n' }));
    expect(rest).toEqual([]);
    expect(e?.code).toBe('SG_SUITE_SYNTAX');
    expect(e?.message).toBe('cases/a.yaml:2:16: YAML syntax: Nested mappings are not allowed in compact mappings');
    expect(e?.detail).toMatchObject({ line: 2, column: 16 });
  });

  it('a duplicate key is a syntax error at the second key', () => {
    expect(messages(suiteWith({ 'a.yaml': '- id: x\n  id: y\n' }))).toEqual(['cases/a.yaml:2:3: YAML syntax: Map keys must be unique']);
  });

  it('an unknown key, at the key', () => {
    const m = suiteWith({ 'a.yaml': GOOD.replace('      expect: {', '      expct: {') });
    expect(messages(m)).toEqual(['cases/a.yaml:5:7: 0.steps.0: unknown key "expct" (not allowed here; check its spelling)']);
  });

  it('a step of no kind, once (not one error per kind)', () => {
    const m = suiteWith({ 'a.yaml': '- id: x\n  requirements: [T-ONE]\n  steps:\n    - name: nothing to do\n' });
    expect(messages(m)).toEqual(['cases/a.yaml:4:7: 0.steps.0: a step needs exactly one of: request, exec, check, wait, agent, set, use, query, command']);
  });

  it('a case without steps or skip, once', () => {
    expect(messages(suiteWith({ 'a.yaml': '- id: x\n  requirements: [T-ONE]\n' }))).toEqual(['cases/a.yaml:1:3: 0: a case needs steps (or skip: with the reason it is not run)']);
  });

  it('a case id that is not kebab-case, at the value', () => {
    expect(messages(suiteWith({ 'a.yaml': '- id: Bad_Id\n  requirements: [T-ONE]\n  skip: later\n' }))).toEqual([
      'cases/a.yaml:1:7: 0.id: "Bad_Id" does not match the form ^[a-z0-9]+(-[a-z0-9]+)*$',
    ]);
  });

  it('a bad level in requirements.yaml', () => {
    const m = suiteWith({}, REQUIREMENTS.replace('level: SHOULD', 'level: SHALL'));
    expect(messages(m)).toEqual(['requirements.yaml:6:10: 1.level: must be one of ["MUST","SHOULD","MAY","STRICTER"]']);
  });

  it('duplicate requirement and case ids', () => {
    const m = suiteWith(
      { 'a.yaml': '- id: x\n  requirements: [T-ONE]\n  skip: a\n', 'b.yaml': '- id: x\n  requirements: [T-ONE]\n  skip: b\n' },
      `${REQUIREMENTS}- id: T-ONE\n  level: MUST\n  source: t.txt#One\n  text: again\n`,
    );
    expect(messages(m)).toEqual(['requirements.yaml:18:3: duplicate requirement id "T-ONE"', 'cases/b.yaml:1:7: duplicate case id "x" (first at cases/a.yaml:1)']);
  });

  it('an unknown requirement, at the list item', () => {
    expect(messages(suiteWith({ 'a.yaml': '- id: x\n  requirements: [T-ONE, T-THREE]\n  skip: a\n' }))).toEqual([
      'cases/a.yaml:2:25: unknown requirement "T-THREE"; add it to requirements.yaml or fix the ID',
    ]);
  });

  it('unknown registered names: generator, oracle, check, codec, schema', () => {
    const text = `- id: x
  requirements: [T-ONE]
  property: { generate: t.nope, oracle: t.none }
  steps:
    - check: t.missing
    - exec: { stdin: { encode: { codec: t.Nothing, value: {} } } }
      expect: { decode: t.Bytes }
    - request: { url: "u" }
      expect: { schema: t/absent, body: { $schema: t/gone } }
`;
    const errs = errorsOf(suiteWith({ 'a.yaml': text }));
    expect(errs.every((e) => e.code === 'SG_SUITE_UNKNOWN')).toBe(true);
    expect(errs.map((e) => e.message)).toEqual([
      'cases/a.yaml:3:25: no generator named "t.nope"',
      'cases/a.yaml:3:41: no oracle named "t.none"',
      'cases/a.yaml:5:14: no check named "t.missing"',
      'cases/a.yaml:6:41: no codec named "t.Nothing"',
      'cases/a.yaml:9:25: no schema named "t/absent"',
      'cases/a.yaml:9:41: no schema named "t/gone"',
    ]);
  });

  it('an expectation attributed to a requirement the case does not name', () => {
    const m = suiteWith({ 'a.yaml': '- id: x\n  requirements: [T-ONE]\n  steps:\n    - request: { url: u }\n      expect: { status: 200, requirement: T-TWO }\n' });
    expect(messages(m)).toEqual(['cases/a.yaml:5:43: "T-TWO" is not one of this case\'s requirements (T-ONE)']);
  });

  it('a bad capture path and an unknown matcher', () => {
    const m = suiteWith({ 'a.yaml': '- id: x\n  requirements: [T-ONE]\n  steps:\n    - request: { url: u }\n      expect: { body: { a: { $regex: "x" } } }\n      capture: { v: "$.items[*]" }\n' });
    expect(messages(m)).toEqual([
      `cases/a.yaml:6:21: bad path "$.items[*]": expected [number] or ['key'] at position 7 (forms: $.a.b, $.items[0], $['odd-key'])`,
      'cases/a.yaml:5:28: unknown matcher $regex',
    ]);
  });

  it('a bad expression, at the string that holds it', () => {
    const m = suiteWith({ 'a.yaml': '- id: x\n  requirements: [T-ONE]\n  steps:\n    - request: { url: "${base +}/x" }\n' });
    const [e] = errorsOf(m);
    expect(e?.code).toBe('SG_SUITE_SCHEMA');
    expect(e?.message).toMatch(/^cases\/a\.yaml:4:23: bad expression \$\{base \+\} in "\$\{base \+\}\/x": it ends where a value is expected/);
  });

  it('collects the problems of every file before giving up', () => {
    const m = suiteWith({
      'a.yaml': '- id: x\n  requirements: [T-NONE]\n  skip: a\n',
      'b.yaml': '- id: y\n  requirements: [T-ONE]\n  stepz: []\n  skip: b\n',
      'c.yaml': '- id: z\n  description: a: b\n',
    });
    expect(messages(m).map((x) => x.split(':')[0])).toEqual(['cases/a.yaml', 'cases/b.yaml', 'cases/c.yaml']);
  });
});
