import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parameterPlan, parameterText, pluginParameter } from '../../../generators/plugin/plugin-parameter.js';
import { generate } from '../../../reference/plugin/generator.js';
import { validatePluginResponse } from '../../../reference/plugin/model/index.js';
import { FIXTURES, loadFixture, requestFor, type FixtureName } from '../../../suites/plugin/checks/fixtures.js';

const fixtures = Object.keys(FIXTURES) as FixtureName[];

describe('pluginParameter', () => {
  it('writes items joined with "," as a compiler joins --NAME_out and --NAME_opt, a suffix always first', () => {
    expect(parameterText({ suffix: '.gen.txt', insert: false }, ['shop.proto'])).toBe('suffix=.gen.txt');
    expect(parameterText({ suffix: '_pb.txt', chunkLines: 3, insert: true }, ['x/shop.proto', 'b.proto'])).toBe('suffix=_pb.txt,chunk_lines=3,insert=x/shop_pb.txt@messages');
  });

  it('gives the same parameters for the same seed', () => {
    const a = fc.sample(pluginParameter(['shop.proto']), { seed: 42, numRuns: 30 });
    expect(fc.sample(pluginParameter(['shop.proto']), { seed: 42, numRuns: 30 })).toEqual(a);
    expect(fc.sample(pluginParameter(['shop.proto']), { seed: 43, numRuns: 30 })).not.toEqual(a);
  });

  it('reaches chunks and insertions, and the reference plugin takes every parameter and keeps every rule with it', () => {
    let chunked = 0;
    let inserted = 0;
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), parameterPlan, (name, plan) => {
        const fixture = loadFixture(name);
        const req = requestFor(fixture, { parameter: parameterText(plan, fixture.file_to_generate) });
        const res = generate(req);
        expect(res.error).toBeUndefined();
        const files = res.file ?? [];
        expect(files.filter((f) => f.name && !f.insertion_point).map((f) => f.name)).toContain(fixture.file_to_generate[0]?.replace(/\.proto$/, plan.suffix));
        if (files.some((f) => f.name === undefined)) chunked++;
        if (files.some((f) => f.insertion_point)) inserted++;
        expect(validatePluginResponse(res, req)).toEqual([]);
      }),
      { seed: 5, numRuns: 200 },
    );
    expect(chunked).toBeGreaterThan(20);
    expect(inserted).toBeGreaterThan(20);
  });

  it('shrinks to a lone suffix', () => {
    const out = fc.check(fc.property(parameterPlan, (plan) => plan.chunkLines === undefined && !plan.insert), { seed: 9, numRuns: 200 });
    expect(out.failed).toBe(true);
    const [plan] = out.counterexample ?? [];
    // one item beyond the suffix is left, at its smallest
    expect(plan && parameterText(plan, ['a.proto']).split(',')).toHaveLength(2);
    if (plan?.chunkLines !== undefined) expect(plan.chunkLines).toBe(1);
  });
});
