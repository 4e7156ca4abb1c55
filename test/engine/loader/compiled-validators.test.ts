import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ajv, ErrorObject, Options } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledValidator } from '../../../src/engine/loader/compiled-validators.js';
import { createAjv, schemaText } from '../../../src/engine/loader/schema-check.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-compiled-validators-'));
const cache = join(root, '.cache');
// keep these throw-away files out of the project's cache folder
beforeAll(() => {
  process.env['SPECGATE_CACHE_DIR'] = cache;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OPTIONS: Options = { allErrors: true, strict: false, allowUnionTypes: true, verbose: true, discriminator: true };
const validators = (): string[] => readdirSync(cache).filter((f) => f.startsWith('validator-'));

/** An Ajv maker that counts what it makes. */
function counting(): { make: (more: Options) => Ajv; made: () => number } {
  let n = 0;
  return {
    make: (more) => {
      n++;
      return createAjv(more);
    },
    made: () => n,
  };
}

/** What a reader of an error uses of it. */
const shape = (errors: ErrorObject[] | null | undefined): unknown[] =>
  (errors ?? []).map((e) => ({ instancePath: e.instancePath, schemaPath: e.schemaPath, keyword: e.keyword, params: e.params, message: e.message, data: e.data, schema: e.schema }));

const ARGS = {
  type: 'object',
  additionalProperties: false,
  required: ['resource'],
  properties: { resource: { type: 'string', pattern: '^[a-z]+$' }, runs: { type: 'integer', minimum: 1 }, mode: { enum: ['a', 'b'] } },
};

describe('compiledValidator', () => {
  it('compiles once, keeps the code, and then answers from the code alone with the same errors', () => {
    const first = counting();
    const compiled = compiledValidator({ args: ARGS }, 'args', OPTIONS, first.make);
    expect(first.made()).toBe(1);
    expect(validators()).toHaveLength(1);

    const second = counting();
    const kept = compiledValidator({ args: ARGS }, 'args', OPTIONS, second.make);
    expect(second.made()).toBe(0);
    expect(kept).not.toBe(compiled);

    for (const value of [{ resource: 'items' }, { resource: 'It3ms', runs: 0, mode: 'c', extra: 1 }, { runs: 2 }, 'text', null]) {
      expect(kept(value)).toBe(compiled(value));
      expect(shape(kept.errors)).toEqual(shape(compiled.errors));
    }
    expect(kept({ runs: 0 })).toBe(false);
    expect(kept.errors?.map((e) => e.keyword).sort()).toEqual(['minimum', 'required']);
  });

  it('keeps schemas that refer to each other by $id, as the shipped suite and case schemas do', () => {
    const schemas = { suite: schemaText('suite'), cases: schemaText('cases') };
    const compiled = compiledValidator(schemas, 'suite', OPTIONS, createAjv);
    const second = counting();
    const kept = compiledValidator(schemas, 'suite', OPTIONS, second.make);
    expect(second.made()).toBe(0);
    const bad = { vars: { base: { description: 1 } }, fragments: { login: { request: { method: 'FETCH' } } }, unknown: true };
    expect(kept(bad)).toBe(false);
    expect(compiled(bad)).toBe(false);
    expect(shape(kept.errors)).toEqual(shape(compiled.errors));
  });

  it('compiles again for another schema, other options or a damaged file', () => {
    const before = validators().length;
    compiledValidator({ args: { ...ARGS, required: [] } }, 'args', OPTIONS, createAjv);
    compiledValidator({ args: ARGS }, 'args', { ...OPTIONS, verbose: false }, createAjv);
    expect(validators()).toHaveLength(before + 2);

    for (const f of validators()) {
      if (readFileSync(join(cache, f), 'utf8').includes('"^[a-z]+$"')) writeFileSync(join(cache, f), 'this is not code (');
    }
    const again = counting();
    const v = compiledValidator({ args: ARGS }, 'args', OPTIONS, again.make);
    expect(again.made()).toBe(1);
    expect(v({ resource: 'Items' })).toBe(false);
  });
});
