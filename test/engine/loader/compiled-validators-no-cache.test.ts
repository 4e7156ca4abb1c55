import type { Ajv, Options } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledValidator } from '../../../src/engine/loader/compiled-validators.js';
import { createAjv, schemaText } from '../../../src/engine/loader/schema-check.js';

// the cache folder is chosen once per process: this file runs without one
beforeAll(() => {
  process.env['SPECGATE_NO_CACHE'] = '1';
});

const OPTIONS: Options = { allErrors: true, strict: false, allowUnionTypes: true, verbose: true, discriminator: true };

describe('compiledValidator without a cache', () => {
  it('compiles as before: one Ajv for every validator, asked for no generated code', () => {
    const asked: Options[] = [];
    const make = (more: Options): Ajv => {
      asked.push(more);
      return createAjv(more);
    };
    const a = compiledValidator({ args: { type: 'object', required: ['a'] } }, 'args', OPTIONS, make);
    const b = compiledValidator({ args: { type: 'object', required: ['b'] } }, 'args', OPTIONS, make);
    // schemas that refer to each other by $id, asked for twice (the same $id is added once)
    const schemas = { suite: schemaText('suite'), cases: schemaText('cases') };
    const suite = compiledValidator(schemas, 'suite', OPTIONS, make);
    const cases = compiledValidator({ cases: schemaText('cases') }, 'cases', OPTIONS, make);
    const again = compiledValidator(schemas, 'suite', OPTIONS, make);
    expect(asked).toEqual([{}]);
    expect([a({ a: 1 }), a({ b: 1 }), b({ b: 1 }), b({ a: 1 })]).toEqual([true, false, true, false]);
    expect(again).toBe(suite);
    expect(suite({ unknown: true })).toBe(false);
    expect(cases('not a list of cases')).toBe(false);
  });
});
