import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outputPathsClash } from '../../../../generators/plugin/naming.js';
import { generatedExchanges } from '../../../../suites/plugin/checks/generated.js';
import { generatedInvocations, keptApart } from '../../../../suites/plugin/checks/invocations.js';

describe('generated compiler invocations', () => {
  it('rename a second generator\'s file that would need a path the first writes as a folder, in every chunk naming it', () => {
    // two responses generated apart: g1 writes ..x/common/main.pb.go, g2 would write ..x/common
    const first = { file: [{ name: '..x/common/main.pb.go', content: '' }] };
    const second = { file: [{ name: '..x/common', content: 'a\n// @@protoc_insertion_point(p)\n' }, { content: 'appended\n' }, { name: '..x/common', insertion_point: 'p', content: 'in\n' }, { name: 'other.txt', content: '' }] };
    const kept = keptApart(first, second);
    const names = (kept.file ?? []).map((f) => f.name);
    expect(names[0]).not.toBe('..x/common');
    expect(names[0]).toBe(names[2]);
    expect(names[1]).toBeUndefined();
    expect(names[3]).toBe('other.txt');
    expect(outputPathsClash(names[0] as string, '..x/common/main.pb.go')).toBe(false);
    // nothing to rename: the very same response comes back
    expect(keptApart(first, { file: [{ name: 'gen/x.txt', content: '' }] })).toEqual({ file: [{ name: 'gen/x.txt', content: '' }] });
  });

  it('never ask two generators of one invocation for a file and a folder of the same path', () => {
    // Responses generated apart clash about once in a thousand pairs; this seed's first 260 pairs
    // hold one, so the pairs below include a clash that keptApart must resolve.
    const written = (r: { file?: { name?: string; insertion_point?: string }[] }): string[] => [...new Set((r.file ?? []).flatMap((f) => (f.name && !f.insertion_point ? [f.name] : [])))];
    const clash = (a: string[], b: string[]): boolean => a.some((x) => b.some((y) => outputPathsClash(x, y)));
    const pairs = fc.sample(fc.tuple(generatedExchanges(), generatedExchanges()), { seed: 2, numRuns: 260 });
    const raw = pairs.filter(([a, b]) => clash(written(a.response), written(b.response)));
    expect(raw.length).toBeGreaterThan(0);
    for (const [a, b] of pairs) {
      const kept = keptApart(a.response, b.response);
      expect(clash(written(a.response), written(kept))).toBe(false);
      // only the clashing names move: as many chunks, the same contents
      expect((kept.file ?? []).map((f) => f.content)).toEqual((b.response.file ?? []).map((f) => f.content));
    }
    // and the invocations the suite runs carry none
    fc.assert(
      fc.property(generatedInvocations(), ({ generators }) => {
        if (generators.length < 2) return;
        expect(clash(written(generators[0]?.response ?? {}), written(generators[1]?.response ?? {}))).toBe(false);
      }),
      { seed: 929003058, numRuns: 100 },
    );
  });
});
