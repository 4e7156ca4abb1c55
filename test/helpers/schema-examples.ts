import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { registryFor } from '../engine/api/example-table.js';

/** Hand-written examples of one schema: values it must accept, and broken ones it must refuse, each with what is broken. */
export interface SchemaExamples {
  good: unknown[];
  bad: [string, unknown][];
}

/**
 * Registers, in the calling `describe`, the tests that hold a suite's schemas to hand-written
 * examples: every schema of `suites/<suite>/schemas/` has examples, and each accepts its good
 * ones (`from` says where they come from: "the spec's example") and refuses each broken one.
 */
export function schemaExampleTests(suite: string, examples: Readonly<Record<string, SchemaExamples>>, from: string): void {
  const dir = fromRoot('suites', suite);
  const registry = registryFor(suite, dir);
  const names = readdirSync(join(dir, 'schemas')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();

  it('has examples for every schema', () => {
    expect(Object.keys(examples).sort()).toEqual(names);
  });

  for (const [name, { good, bad }] of Object.entries(examples)) {
    it(`${name} accepts ${from} and refuses each broken one`, () => {
      good.forEach((value, i) => expect(registry.validateSchema(`${suite}/${name}`, value), `good example ${i}`).toEqual([]));
      for (const [why, value] of bad) expect(registry.validateSchema(`${suite}/${name}`, value), why).not.toEqual([]);
    });
  }
}
