import * as fc from 'fast-check';

type Schema = Record<string, unknown>;

/**
 * Values that satisfy a (simple) JSON Schema, for request bodies the API checks and sequences
 * send: `enum`/`const`, strings (length bounds), integers and numbers (bounds), booleans,
 * arrays (item schema, size bounds), objects (required properties always, others sometimes),
 * `oneOf`/`anyOf` (any branch), null. Strings are short words so answers stay readable in
 * reports; anything the generator does not know becomes an empty object.
 */
export function arbitraryFor(schema: unknown): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return fc.constant({});
  const s = schema as Schema;
  if (Array.isArray(s['enum']) && s['enum'].length) return fc.constantFrom(...(s['enum'] as unknown[]));
  if ('const' in s) return fc.constant(s['const']);
  const branches = (s['oneOf'] ?? s['anyOf']) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length) return fc.oneof(...branches.map(arbitraryFor));
  const type = Array.isArray(s['type']) ? (s['type'][0] as string) : (s['type'] as string | undefined);
  switch (type ?? (s['properties'] ? 'object' : undefined)) {
    case 'string': {
      const min = num(s['minLength']) ?? 1;
      const max = Math.max(min, Math.min(num(s['maxLength']) ?? 12, min + 12));
      return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 '.split('')), minLength: min, maxLength: max });
    }
    case 'integer':
      return fc.integer({ min: num(s['minimum']) ?? 0, max: num(s['maximum']) ?? 1000 });
    case 'number':
      return fc.double({ min: num(s['minimum']) ?? 0, max: num(s['maximum']) ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = num(s['minItems']) ?? 0;
      return fc.array(arbitraryFor(s['items']), { minLength, maxLength: Math.max(minLength, Math.min(num(s['maxItems']) ?? 3, minLength + 3)) });
    }
    case 'object': {
      const props = (s['properties'] ?? {}) as Record<string, unknown>;
      const required = new Set((s['required'] ?? []) as string[]);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = arbitraryFor(v);
      // a required key the schema does not describe still has to be there: any short word does
      for (const k of required) model[k] ??= arbitraryFor({ type: 'string' });
      return fc.record(model, { requiredKeys: [...required] });
    }
    default:
      return fc.constant({});
  }
}

/** One value for a schema, fixed by the seed (the same run sends the same body). */
export function sampleFor(schema: unknown, seed: number): unknown {
  return fc.sample(schemaArbitrary(schema), { seed, numRuns: 1 })[0];
}

/** Arbitraries made for the schemas of the loaded tables (a table's schemas are never changed once loaded). */
const arbitraries = new WeakMap<object, fc.Arbitrary<unknown>>();

/**
 * {@link arbitraryFor} a schema, made once per schema object: an arbitrary only describes how
 * values are drawn, and a seed alone decides what it draws, so one made earlier draws the same
 * values. The route checks of a suite draw bodies of the same few schemas for every item they
 * create.
 */
function schemaArbitrary(schema: unknown): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return arbitraryFor(schema);
  let arb = arbitraries.get(schema);
  if (!arb) {
    arb = arbitraryFor(schema);
    arbitraries.set(schema, arb);
  }
  return arb;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}
