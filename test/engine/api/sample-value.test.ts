import * as fc from 'fast-check';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { arbitraryFor, sampleFor } from '../../../src/engine/api/sample-value.js';
import { notesTable } from './example-table.js';

describe('arbitraryFor', () => {
  it('generates values every schema of the notes example accepts', () => {
    const table = notesTable();
    const ajv = new Ajv({ strict: false, allowUnionTypes: true });
    for (const [name, schema] of Object.entries(table.schemas)) {
      const valid = ajv.compile(schema);
      for (const v of fc.sample(arbitraryFor(schema), { seed: 3, numRuns: 60 })) expect(valid(v), `${name}: ${JSON.stringify(v)}`).toBe(true);
    }
  });

  it('honours bounds, enums and required keys', () => {
    const schema = { type: 'object', required: ['n', 'c'], properties: { n: { type: 'integer', minimum: 5, maximum: 7 }, c: { enum: ['x', 'y'] }, s: { type: 'string', minLength: 3, maxLength: 4 } } };
    for (const v of fc.sample(arbitraryFor(schema), { seed: 1, numRuns: 100 }) as { n: number; c: string; s?: string }[]) {
      expect(v.n).toBeGreaterThanOrEqual(5);
      expect(v.n).toBeLessThanOrEqual(7);
      expect(['x', 'y']).toContain(v.c);
      if (v.s !== undefined) expect(v.s.length).toBeGreaterThanOrEqual(3);
      if (v.s !== undefined) expect(v.s.length).toBeLessThanOrEqual(4);
    }
  });

  it('gives the same sample for the same seed', () => {
    const schema = { type: 'string', minLength: 5 };
    expect(sampleFor(schema, 42)).toEqual(sampleFor(schema, 42));
  });

  it('draws what a freshly made arbitrary draws, whatever the same schema drew before (its arbitrary is made once)', () => {
    const table = notesTable();
    for (const schema of Object.values(table.schemas)) {
      const seeds = [5, 6, 7, 5];
      const drawn = seeds.map((seed) => sampleFor(schema, seed));
      expect(drawn).toEqual(seeds.map((seed) => fc.sample(arbitraryFor(schema), { seed, numRuns: 1 })[0]));
    }
  });
});
