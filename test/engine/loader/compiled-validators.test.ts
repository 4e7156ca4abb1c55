import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
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

/** A validator's cached file, replaced by code that leaves a mark when it runs and accepts anything. */
function plant(file: string, mark: string): void {
  writeFileSync(join(cache, file), `globalThis[${JSON.stringify(mark)}] = true; module.exports.validate = () => true;`);
}
const marked = (mark: string): boolean => (globalThis as Record<string, unknown>)[mark] === true;

describe.skipIf(typeof process.getuid !== 'function')('compiledValidator runs cached code only from files and a folder no one else may write', () => {
  const schema = { ...ARGS, title: 'planted' };
  const fileOf = (): string => {
    const hit = validators().find((f) => readFileSync(join(cache, f), 'utf8').includes('planted'));
    if (!hit) throw new Error('no cached validator for the planted schema');
    return hit;
  };

  it('runs a kept file of this user that only this user may write (the check can tell a planted file ran)', () => {
    compiledValidator({ args: schema }, 'args', OPTIONS, createAjv);
    const file = fileOf();
    plant(file, 'plantedPrivate');
    chmodSync(join(cache, file), 0o644);
    const v = compiledValidator({ args: schema }, 'args', OPTIONS, createAjv);
    expect(marked('plantedPrivate')).toBe(true);
    expect(v({ runs: 'many' })).toBe(true);
  });

  it('compiles instead of running a file that group or others may write, and still validates', () => {
    for (const mode of [0o664, 0o646]) {
      const mark = `plantedFile${mode.toString(8)}`;
      const file = fileOf();
      plant(file, mark);
      chmodSync(join(cache, file), mode);
      const again = counting();
      const v = compiledValidator({ args: schema }, 'args', OPTIONS, again.make);
      expect(marked(mark)).toBe(false);
      expect(again.made()).toBe(1);
      expect(v({ runs: 'many' })).toBe(false);
      expect(v({ resource: 'items' })).toBe(true);
      unlinkSync(join(cache, file));
      compiledValidator({ args: schema }, 'args', OPTIONS, createAjv);
    }
  });

  it('neither runs nor writes code in a folder others may write', () => {
    const file = fileOf();
    plant(file, 'plantedFolder');
    chmodSync(join(cache, file), 0o644);
    chmodSync(cache, 0o777);
    try {
      const before = validators().length;
      const again = counting();
      const v = compiledValidator({ args: schema }, 'args', OPTIONS, again.make);
      expect(marked('plantedFolder')).toBe(false);
      expect(v({ runs: 'many' })).toBe(false);
      expect(v({ resource: 'items' })).toBe(true);
      // a schema not seen before is compiled and not kept there
      const other = compiledValidator({ args: { ...ARGS, title: 'not kept' } }, 'args', OPTIONS, createAjv);
      expect(other({ resource: 'Items' })).toBe(false);
      expect(validators()).toHaveLength(before);
      expect(again.made()).toBe(1);
    } finally {
      chmodSync(cache, 0o755);
    }
  });

  it('leaves no part-written file when the kept code cannot be written', () => {
    const schemas = { args: { ...ARGS, title: 'unwritable' } };
    compiledValidator(schemas, 'args', OPTIONS, createAjv);
    const file = validators().find((f) => readFileSync(join(cache, f), 'utf8').includes('unwritable')) ?? '';
    unlinkSync(join(cache, file));
    // a folder where the file would go: the written text cannot take its name
    mkdirSync(join(cache, file));
    writeFileSync(join(cache, file, 'inside'), '');
    const v = compiledValidator(schemas, 'args', OPTIONS, createAjv);
    expect(v({ resource: 'items' })).toBe(true);
    expect(readdirSync(cache).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
