import { describe, expect, it } from 'vitest';
import { API_CHECKS } from '../../../src/engine/api/verifiers/index.js';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import { loadSuite } from '../../../src/engine/loader/suite-loader.js';
import { ShapeNames } from '../../../src/engine/loader/shape-names.js';
import { isShape, recordingModule, shapeOfModule, ShapeShortError, type SetsAnswers, type SuiteShape } from '../../../src/engine/loader/suite-shape.js';
import { Registry } from '../../../src/engine/registry.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { builtinSuites } from '../../../suites/index.js';

const modules = await builtinSuites();

/** The shape of a module as a load of its suite leaves it, read back from JSON as the cache gives it. */
function keptShapeOf(m: SuiteModule): SuiteShape {
  const answers: SetsAnswers = new Map();
  const recording = recordingModule(m, answers);
  loadSuite(recording, new Registry([recording]));
  const shape = shapeOfModule(m, API_CHECKS, answers);
  if (!shape) throw new Error(`suite ${m.name} has no shape`);
  const read: unknown = JSON.parse(JSON.stringify(shape));
  expect(isShape(read)).toBe(true);
  return read as SuiteShape;
}

describe('suite shapes (suite-shape.ts, shape-names.ts)', () => {
  it.each(modules.map((m) => [m.name, m] as const))('load suite %s as its code does', (_name, m) => {
    const names = new ShapeNames([keptShapeOf(m)]);
    const light = names.suiteModules()[0] as SuiteModule;
    const full = loadSuite(m, new Registry([m]));
    // the same suite, case for case (a case's functions are the engine's, not the module's)
    expect(JSON.stringify(loadSuite(light, names))).toBe(JSON.stringify(full));
  });

  it('resolve every name as the registry does', () => {
    const registry = new Registry(modules);
    const names = new ShapeNames(modules.map(keptShapeOf));
    const asked = [
      ...modules.flatMap((m) => [
        ...Object.keys(m.checks ?? {}).map((n) => ['check', `${m.name}.${n}`] as const),
        ...Object.keys(m.generators ?? {}).map((n) => ['generator', `${m.name}.${n}`] as const),
        ...Object.keys(m.oracles ?? {}).map((n) => ['oracle', `${m.name}.${n}`] as const),
        ...Object.keys(m.codecs ?? {}).map((n) => ['codec', `${m.name}.${n}`] as const),
        ['check', `${m.name}.nothing`] as const,
        ['generator', `${m.name}`] as const,
      ]),
      ...Object.keys(API_CHECKS).map((n) => ['check', `api.${n}`] as const),
      ['check', 'api.nothing'] as const,
      ['generator', 'api.served'] as const,
    ];
    for (const [kind, name] of asked) expect([kind, name, names.has(kind, name)]).toEqual([kind, name, registry.has(kind, name)]);
    for (const m of modules) for (const key of [...Object.keys(m.schemas ?? {}), 'nothing']) expect(names.schema(`${m.name}/${key}`)).toEqual(registry.schema(`${m.name}/${key}`));
    const check = registry.check('plugin.responseRules');
    expect(names.check('plugin.responseRules')).toMatchObject({ description: check.description, args: check.args, judges: check.judges });
    expect(() => names.check('plugin.responseRules').run({} as never, {} as never)).toThrow(ShapeShortError);
  });

  const dir = '/nowhere';
  const sets = defineCheck<{ as: string }>({ description: 'logs in', args: { type: 'object' }, judges: 'case', sets: (a) => [`${a.as}_token`], run: async () => undefined });

  it('answer what a computed `sets` answered during the load, and no other arguments', () => {
    const module: SuiteModule = { name: 's', dir, checks: { sets } };
    const answers: SetsAnswers = new Map();
    const recording = recordingModule(module, answers);
    expect(new Registry([recording]).check('s.sets').sets).toBeTypeOf('function');
    const asked = (new Registry([recording]).check('s.sets').sets as (a: object) => string[])({ as: 'alice' });
    expect(asked).toEqual(['alice_token']);
    const names = new ShapeNames([JSON.parse(JSON.stringify(shapeOfModule(module, {}, answers))) as SuiteShape]);
    const light = names.check('s.sets').sets as (a: object) => string[];
    expect(light({ as: 'alice' })).toEqual(['alice_token']);
    expect(() => light({ as: 'bob' })).toThrow(ShapeShortError);
  });

  it('is no shape for a check without a contract, a schema that is not plain JSON, or text with control characters', () => {
    const ok: SuiteModule = { name: 's', dir, checks: { sets }, schemas: { a: { type: 'string' } } };
    expect(shapeOfModule(ok, {})).toBeDefined();
    expect(shapeOfModule({ ...ok, checks: { bare: { description: 'no run' } as never } }, {})).toBeUndefined();
    expect(shapeOfModule({ ...ok, schemas: { a: { pattern: /x/ } } }, {})).toBeUndefined();
    expect(shapeOfModule({ ...ok, schemas: { a: { const: 'a\u001b[2Jb' } } }, {})).toBeUndefined();
    expect(shapeOfModule({ ...ok, generators: { 'x\u001b': () => undefined as never } }, {})).toBeUndefined();
    const shape = JSON.parse(JSON.stringify(shapeOfModule(ok, {}))) as Record<string, unknown>;
    expect(isShape(shape)).toBe(true);
    for (const key of Object.keys(shape)) {
      const { [key]: _gone, ...less } = shape;
      expect([key, isShape(less)]).toEqual([key, false]);
    }
    expect(isShape({ ...shape, checks: { sets: { description: 'x', args: {}, judges: 'case', sets: 'computed' } } })).toBe(false);
    expect(isShape({ ...shape, apiModels: { m: { resource: 'r\u009b' } } })).toBe(false);
  });
});
