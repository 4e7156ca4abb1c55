import { describe, expect, it } from 'vitest';
import { allSourceFiles, importsOf, sourceFiles, suiteOf, under, violations, type ImportEdge } from './import-graph.js';
import { suitePathUses } from './suite-paths.js';

/**
 * ARCHITECTURE.md's dependency rule, checked on every import of every source file (type-only
 * imports included: a type still ties one file to another). Each test names the rule's ID as
 * written in ARCHITECTURE.md; rule-text.test.ts keeps the two lists equal.
 */

/** What a suite, its model or its generators may use from `src/`: the engine's public modules. */
const ENGINE_PUBLIC = [
  'src/errors.ts',
  'src/paths.ts',
  'src/engine/suite-module.ts',
  'src/engine/model.ts',
  'src/engine/clock.ts',
  'src/engine/events.ts',
  'src/engine/expressions.ts',
  'src/engine/json-path.ts',
  'src/engine/seeded-random.ts',
  'src/engine/checks',
  'src/engine/api',
  'src/targets',
  'src/checks',
];

const SUITE_AREAS = ['suites', 'reference', 'generators'] as const;

function isPublic(path: string): boolean {
  return ENGINE_PUBLIC.some((p) => under(path, p));
}

/** A file of suite `s`'s folders importing a file of another suite's folders. */
function crossSuite(edge: ImportEdge): boolean {
  const own = suiteOf(edge.from);
  const other = suiteOf(edge.to);
  return own !== undefined && other !== undefined && other !== own;
}

const anyOf = (path: string, prefixes: readonly string[]): boolean => prefixes.some((p) => under(path, p));

/** Each import rule as the import it refuses (its files are chosen in its test below). */
const refuses = {
  D1: (e: ImportEdge): boolean => anyOf(e.to, ['suites', 'reference', 'generators', 'src/reporting', 'cli']),
  D2: (e: ImportEdge): boolean => anyOf(e.to, ['cli', 'suites', 'reference', 'generators', 'examples']),
  D3: (e: ImportEdge): boolean => !anyOf(e.to, ['src/reporting', 'src/engine/model.ts', 'src/engine/events.ts', 'src/errors.ts', 'src/paths.ts']),
  D4: (e: ImportEdge): boolean => {
    if (crossSuite(e)) return true;
    if (anyOf(e.to, SUITE_AREAS)) return false; // its own suite's files (crossSuite caught the rest)
    return !isPublic(e.to);
  },
  // outside a suite's own folders, only suites/index.ts imports a suite's files
  D5: (e: ImportEdge): boolean => suiteOf(e.to) !== undefined && e.from !== 'suites/index.ts' && suiteOf(e.from) === undefined,
  D6: (e: ImportEdge): boolean => {
    if (crossSuite(e)) return true;
    if (under(e.to, 'suites')) return true; // the model and generators know nothing of the checks built on them
    if (under(e.from, 'reference') && under(e.to, 'generators')) return true;
    if (anyOf(e.to, SUITE_AREAS)) return false;
    return !isPublic(e.to);
  },
  // src/ imports no suite code at all (D1, D2); the CLI reaches suites only through the list
  D7: (e: ImportEdge): boolean => anyOf(e.to, SUITE_AREAS) && !(under(e.from, 'cli') && e.to === 'suites/index.ts'),
  // and the list is a list: it loads each suite's index, nothing deeper
  D7list: (e: ImportEdge): boolean => !/^suites\/[\w-]+\/index\.ts$/.test(e.to) && !isPublic(e.to),
};

const edge = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: false, dynamic: false });

describe('dependency rule (ARCHITECTURE.md)', () => {
  it('finds the sources it checks', () => {
    expect(sourceFiles('src/engine').length).toBeGreaterThan(10);
    expect(sourceFiles('cli').length).toBeGreaterThan(3);
    expect(sourceFiles('suites').length).toBeGreaterThan(10);
    expect(sourceFiles('reference').length).toBeGreaterThan(10);
    expect(sourceFiles('generators').length).toBeGreaterThan(5);
    // the edges the rules below allow are seen, so a rule cannot pass because imports went unread
    const edges = allSourceFiles().flatMap((f) => importsOf(f)).map((e) => `${e.from} -> ${e.to}`);
    expect(edges).toContain('suites/index.ts -> suites/plugin/index.ts');
    expect(edges.some((e) => /^cli\/.* -> suites\/index\.ts$/.test(e))).toBe(true);
    expect(edges.some((e) => /^generators\/oauth\/.* -> reference\/oauth\//.test(e))).toBe(true);
  });

  it('[D1] src/engine imports no suite, reference model, generator, reporter or CLI', () => {
    expect(violations(sourceFiles('src/engine'), refuses.D1)).toEqual([]);
  });

  it('[D2] src/ imports nothing from cli/, suites/, reference/, generators/ or examples/', () => {
    expect(violations(sourceFiles('src'), refuses.D2)).toEqual([]);
  });

  it('[D3] reporters consume only the engine result and event types', () => {
    expect(violations(sourceFiles('src/reporting'), refuses.D3)).toEqual([]);
  });

  it("[D4] a suite's files import the engine's public modules and their own suite's reference and generators only", () => {
    expect(violations(sourceFiles('suites').filter((f) => suiteOf(f) !== undefined), refuses.D4)).toEqual([]);
  });

  it('[D5] suites/index.ts is the one place that lists suites', () => {
    expect(violations(allSourceFiles(), refuses.D5)).toEqual([]);
  });

  it("[D6] a suite's reference model and generators import no CLI, reporter, engine internals or other suite; the model imports no generators", () => {
    expect(violations([...sourceFiles('reference'), ...sourceFiles('generators')], refuses.D6)).toEqual([]);
  });

  it("[D7] the engine reaches a suite's model and generators only by registered name", () => {
    expect(violations([...sourceFiles('src'), ...sourceFiles('cli')], refuses.D7)).toEqual([]);
    expect(violations(['suites/index.ts'], refuses.D7list)).toEqual([]);
  });

  it('each import rule refuses a planted import and lets the allowed ones through', () => {
    const planted: [keyof typeof refuses, string, string, boolean][] = [
      ['D1', 'src/engine/run.ts', 'suites/plugin/index.ts', true],
      ['D1', 'src/engine/run.ts', 'src/reporting/json.ts', true],
      ['D1', 'src/engine/run.ts', 'src/targets/types.ts', false],
      ['D2', 'src/targets/profile.ts', 'cli/main.ts', true],
      ['D2', 'src/targets/profile.ts', 'examples/notes/server.ts', true],
      ['D2', 'src/targets/profile.ts', 'src/engine/model.ts', false],
      ['D3', 'src/reporting/json.ts', 'src/engine/run.ts', true],
      ['D3', 'src/reporting/json.ts', 'src/engine/events.ts', false],
      ['D4', 'suites/oauth/checks/a.ts', 'reference/plugin/model/index.ts', true],
      ['D4', 'suites/oauth/checks/a.ts', 'src/engine/runtime/case-run.ts', true],
      ['D4', 'suites/oauth/checks/a.ts', 'cli/main.ts', true],
      ['D4', 'suites/oauth/checks/a.ts', 'reference/oauth/model/index.ts', false],
      ['D4', 'suites/oauth/checks/a.ts', 'src/engine/checks/contract.ts', false],
      ['D5', 'cli/run-command.ts', 'suites/plugin/index.ts', true],
      ['D5', 'suites/index.ts', 'suites/plugin/index.ts', false],
      ['D6', 'reference/oauth/model/a.ts', 'generators/oauth/b.ts', true],
      ['D6', 'generators/oauth/b.ts', 'suites/oauth/checks/support.ts', true],
      ['D6', 'generators/plugin/b.ts', 'reference/oauth/model/a.ts', true],
      ['D6', 'generators/oauth/b.ts', 'reference/oauth/model/a.ts', false],
      ['D7', 'cli/run-command.ts', 'reference/plugin/reference-target.ts', true],
      ['D7', 'cli/suites.ts', 'suites/index.ts', false],
      ['D7list', 'suites/index.ts', 'suites/plugin/checks/support.ts', true],
      ['D7list', 'suites/index.ts', 'suites/plugin/index.ts', false],
    ];
    const wrong = planted.filter(([rule, from, to, refused]) => refuses[rule](edge(from, to)) !== refused);
    expect(wrong).toEqual([]);
  });

  it("[D9] no file reads another suite's data files", () => {
    const bad = allSourceFiles()
      .flatMap((f) => suitePathUses(f))
      .filter((u) => suiteOf(u.file) !== u.suite)
      .map((u) => `${u.file}:${u.line} names ${u.area}/${u.suite}/`);
    expect(bad).toEqual([]);
  });
});
