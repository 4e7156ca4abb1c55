import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { validateCommand } from '../../cli/validate-command.js';
import { validateWithShapes } from '../../cli/validate-builtin.js';
import { defineCheck } from '../../src/engine/checks/contract.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { SpecgateError, SpecgateErrorList } from '../../src/errors.js';

// the code's stamp, changed by a test as a rebuild would change it
const code = vi.hoisted(() => ({ stamp: 'build-1' }));
vi.mock('../../src/engine/loader/input-stamp.js', async (original) => ({
  ...(await original<typeof import('../../src/engine/loader/input-stamp.js')>()),
  codeStamp: () => code.stamp,
}));

// counts the checks that run (a check found kept runs none)
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../cli/validate-command.js', async (original) => {
  const real = await original<typeof import('../../cli/validate-command.js')>();
  return {
    ...real,
    validateCommand: (...args: Parameters<typeof real.validateCommand>) => {
      checks.count++;
      return real.validateCommand(...args);
    },
  };
});

const root = mkdtempSync(join(tmpdir(), 'specgate-validate-shapes-'));
// the shapes of this throw-away suite stay out of the project's cache folder
process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dir = join(root, 'sx');
mkdirSync(join(dir, 'cases'), { recursive: true });
const REQUIREMENTS = ['R-1', 'R-2'].map((id) => `- id: ${id}\n  level: MUST\n  source: t.txt#${id}\n  text: rule ${id}\n`).join('');
writeFileSync(join(dir, 'requirements.yaml'), REQUIREMENTS);
writeFileSync(join(dir, 'suite.yaml'), 'vars:\n  base: { description: where the target is }\n');
const caseFile = join(dir, 'cases', 'c.yaml');

const run = async (): Promise<void> => undefined;
const module: SuiteModule = {
  name: 'sx',
  dir,
  checks: {
    login: defineCheck<{ as: string }>({
      description: 'logs in as someone',
      args: { type: 'object', properties: { as: { type: 'string' } }, required: ['as'], additionalProperties: false },
      judges: ['R-1'],
      sets: (a) => [`${a.as}_token`],
      run,
    }),
    probe: defineCheck({ description: 'probes', args: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false }, judges: 'case', sets: ['probed'], run }),
  },
  generators: { gen: () => undefined as never },
  codecs: { raw: { encode: () => new Uint8Array(), decode: () => undefined } },
  passiveRules: { rule: { description: 'a rule', requirements: ['R-1'], judge: () => [] } },
  schemas: { body: { type: 'object' } },
};

let loads = 0;
const load = async (): Promise<SuiteModule[]> => {
  loads++;
  return [module];
};

interface Outcome {
  code: number | undefined;
  out: string;
  errors: [string, string][];
}

async function outcome(check: (out: { write(t: string): unknown }) => Promise<number>): Promise<Outcome> {
  let out = '';
  try {
    return { code: await check({ write: (t: string) => (out += t) }), out, errors: [] };
  } catch (e) {
    if (!(e instanceof SpecgateError)) throw e;
    const all = e instanceof SpecgateErrorList ? e.errors : [e];
    return { code: undefined, out, errors: all.map((x) => [x.code, x.message]) };
  }
}

/**
 * Validates the case file with kept shapes (their code loaded when they cannot serve), again
 * (what the first found, kept), and with the module's code; and how many loads the first took.
 */
async function both(cases: string): Promise<{ light: Outcome; full: Outcome; loaded: number }> {
  writeFileSync(caseFile, cases);
  const before = loads;
  const light = await outcome((out) => validateWithShapes([{ name: 'sx', dir }], load, [caseFile], out));
  const loaded = loads - before;
  const checked = checks.count;
  const again = await outcome((out) => validateWithShapes([{ name: 'sx', dir }], load, [caseFile], out));
  expect([checks.count - checked, loads - before - loaded]).toEqual([0, 0]);
  expect(again).toEqual(light);
  const full = await outcome((out) => validateCommand([module], [caseFile], out));
  return { light, full, loaded };
}

const GOOD = `- id: good
  requirements: [R-1, R-2]
  property: { generate: sx.gen }
  steps:
    - check: sx.login
      with: { as: alice }
    - check: sx.probe
      with: { n: 1 }
    - request: { url: "\${base}/x?t=\${alice_token}&p=\${probed}" }
      expect: { status: 200, schema: sx/body }
`;

describe('validate of suite files with kept shapes (validate-builtin.ts)', () => {
  beforeEach(() => {
    code.stamp = 'build-1';
  });

  it('loads the code once, then checks a good file without it, with the same output', async () => {
    const first = await both(GOOD);
    expect(first.loaded).toBe(1);
    expect(first.light).toEqual({ code: 0, out: `ok  ${caseFile}\n`, errors: [] });
    expect(first.full).toEqual(first.light);
    const again = await both(GOOD);
    expect(again.loaded).toBe(0);
    expect(again.light).toEqual(first.full);
  });

  const broken: [string, string][] = [
    ['an unknown requirement', GOOD.replace('[R-1, R-2]', '[R-1, R-2, R-9]')],
    ['an unknown check', GOOD.replace('sx.probe', 'sx.prob')],
    ['an unknown generator', GOOD.replace('sx.gen', 'sx.generate')],
    ['an unknown schema', GOOD.replace('sx/body', 'sx/bodies')],
    ['arguments the check does not take', GOOD.replace('{ n: 1 }', '{ n: one, m: 2 }')],
    ['a variable nothing sets', GOOD.replace('${probed}', '${probe}')],
    ['a requirement no step judges', GOOD.replace(/ {4}- check: sx\.probe\n.*\n/, '').replace(/ {6}expect: .*\n/, '')],
    ['an expression that does not parse', GOOD.replace('${base}', '${base')],
    ['a case schema error', GOOD.replace('  property:', '  colour: red\n  property:')],
    ['YAML that does not parse', '- id: [broken\n'],
    ['a duplicate case id', GOOD + GOOD.replace('id: good', 'id: good')],
    // names every object has are no names of the suite's, whether or not it has such a table
    ['a schema named after an object member', GOOD.replace('sx/body', 'sx/toString')],
    ['a generator named after an object member', GOOD.replace('sx.gen', 'sx.constructor')],
    ['an oracle named after an object member', GOOD.replace('{ generate: sx.gen }', '{ generate: sx.gen, oracle: sx.hasOwnProperty }')],
  ];

  it.each(broken)('reports %s as the code does, without loading it', async (_what, text) => {
    await both(GOOD);
    const { light, full, loaded } = await both(text);
    expect(loaded).toBe(0);
    expect(full.errors.length).toBeGreaterThan(0);
    expect(light).toEqual(full);
  });

  it('loads the code for arguments of a computed `sets` it has not seen, then needs it no more', async () => {
    await both(GOOD);
    const bob = GOOD.replace('as: alice', 'as: bob').replace('alice_token', 'bob_token');
    const first = await both(bob);
    expect(first.loaded).toBe(1);
    expect(first.light).toEqual({ code: 0, out: `ok  ${caseFile}\n`, errors: [] });
    expect((await both(bob)).loaded).toBe(0);
    // what the loaded code says of the arguments is said the same without it
    const unset = await both(bob.replace('bob_token', 'alice_token'));
    expect(unset.loaded).toBe(0);
    expect(unset.light).toEqual(unset.full);
    expect(unset.light.errors[0]?.[1]).toMatch(/reads \$\{alice_token\}, which nothing sets before this step/);
  });

  it('loads the code again once a file of the suite other than those the loader reads changes, or the code does', async () => {
    await both(GOOD);
    expect((await both(GOOD)).loaded).toBe(0);
    writeFileSync(join(dir, 'notes.json'), '{}');
    expect((await both(GOOD)).loaded).toBe(1);
    expect((await both(GOOD)).loaded).toBe(0);
    code.stamp = 'build-2';
    expect((await both(GOOD)).loaded).toBe(1);
    expect((await both(GOOD)).loaded).toBe(0);
    // the catalog and the case files are checked each time: a change to them keeps the shape
    writeFileSync(join(dir, 'requirements.yaml'), `${REQUIREMENTS}- id: R-3\n  level: MUST\n  source: t.txt#R-3\n  text: rule R-3\n  excluded: not observable\n`);
    const after = await both(GOOD);
    expect(after.loaded).toBe(0);
    expect(after.light).toEqual(after.full);
  });

  it('reports a passive rule judging a requirement the catalog no longer has, as the code does', async () => {
    await both(GOOD);
    writeFileSync(join(dir, 'requirements.yaml'), REQUIREMENTS.replace('R-1', 'R-0'));
    try {
      const { light, full, loaded } = await both(GOOD);
      expect(loaded).toBe(0);
      expect(full.errors.map(([, m]) => m)).toContain('suite sx: passive rule "rule" judges requirement "R-1", which requirements.yaml does not have; fix the ID or add the requirement');
      expect(light).toEqual(full);
    } finally {
      writeFileSync(join(dir, 'requirements.yaml'), REQUIREMENTS);
    }
  });
});
