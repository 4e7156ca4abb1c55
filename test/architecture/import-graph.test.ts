import { describe, expect, it } from 'vitest';
import { cyclePaths, tangles } from './cycles.js';
import { importsIn, parseSource } from './import-graph.js';
import { suitePathUsesIn } from './suite-paths.js';

/** The scanners the architecture tests rely on find what they must, so a rule cannot pass by missing imports. */
describe('architecture scanners', () => {
  it('reads static, re-exported, side-effect, dynamic and type-only imports, and skips packages and comments', () => {
    const sf = parseSource(
      'src/engine/sample.ts',
      [
        "import { a } from './model.js';",
        "import type { B } from '../targets/types.js';",
        "import { type C, type D } from './clock.js';",
        "import { type E, f } from './events.js';",
        "export * from './json-path.js';",
        "export type { G } from './expressions.js';",
        "import './side-effect.js';",
        "import { parse } from 'yaml';",
        "// import { z } from '../../suites/plugin/index.js';",
        "const x: import('./registry.js').Registry | undefined = undefined;",
        "export async function load() { return import('../../suites/index.js'); }",
      ].join('\n'),
    );
    const seen = importsIn(sf).map((e) => `${e.to}${e.typeOnly ? ' type' : ''}${e.dynamic ? ' dynamic' : ''}`);
    expect(seen.sort()).toEqual(
      [
        'src/engine/model.ts',
        'src/targets/types.ts type',
        'src/engine/clock.ts type',
        'src/engine/events.ts',
        'src/engine/json-path.ts',
        'src/engine/expressions.ts type',
        'src/engine/side-effect.ts',
        'src/engine/registry.ts type',
        'suites/index.ts dynamic',
      ].sort(),
    );
  });

  it('reports each cycle as a path and leaves acyclic graphs alone', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
      ['f.ts', ['g.ts']],
      ['g.ts', ['f.ts', 'd.ts']],
    ]);
    expect(tangles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts'], ['f.ts', 'g.ts']]);
    expect(cyclePaths(graph)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts', 'e.ts -> e.ts', 'f.ts -> g.ts -> f.ts']);
    expect(cyclePaths(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });

  it("finds a suite's folder named in strings and in path parts, not in comments or imports", () => {
    const sf = parseSource(
      'suites/oauth/checks/sample.ts',
      [
        "import { x } from '../../plugin/index.js';",
        '// reads suites/plugin/data/ once',
        "const a = fromRoot('suites', 'plugin', 'data', 'x.json');",
        "const b = `${root}/generators/plugin/well-known.json`;",
        "const c = join(root, 'reference', 'unknown-suite', 'x');",
        "const d = fromRoot('suites', 'oauth', 'cases');",
      ].join('\n'),
    );
    const uses = suitePathUsesIn(sf, new Set(['plugin', 'oauth'])).map((u) => `${u.line} ${u.area}/${u.suite}`);
    expect(uses).toEqual(['3 suites/plugin', '4 generators/plugin', '6 suites/oauth']);
  });
});
