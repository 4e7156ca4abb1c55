import { describe, expect, it } from 'vitest';
import { cyclePaths, graphOf } from './cycles.js';
import { allSourceFiles } from './import-graph.js';

/**
 * No import cycles anywhere in the product's sources. Type-only imports count: a cycle of types
 * still means neither file can be read, tested or moved without the other, and it is how a
 * narrow interface below a module turns into reaching back up into it.
 */
describe('import cycles (ARCHITECTURE.md)', () => {
  it('[D8] no import cycles in src/, cli/, suites/, reference/ or generators/ (type-only imports included)', () => {
    const graph = graphOf(allSourceFiles(), () => true);
    expect(graph.size).toBeGreaterThan(100);
    expect(cyclePaths(graph)).toEqual([]);
  });
});
