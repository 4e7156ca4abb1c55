import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root, sourceFiles, syntaxOf } from './import-graph.js';

/** The rule IDs (`[D1]`, ...) ARCHITECTURE.md's "Dependency rule" section states, in order. */
function documentedRules(): string[] {
  const text = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  const start = text.indexOf('\n## Dependency rule\n');
  expect(start, 'ARCHITECTURE.md has a "## Dependency rule" section').toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + 1);
  const end = rest.indexOf('\n## ', 1);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^- \*\*\[(D\d+)\]\*\*/gm)].map((m) => m[1] as string);
}

/** The rule IDs the architecture tests name in their titles (`it('[D1] ...')`). */
function testedRules(): string[] {
  const ids: string[] = [];
  for (const file of sourceFiles('test/architecture').filter((f) => f.endsWith('.test.ts'))) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && (node.expression.text === 'it' || node.expression.text === 'test')) {
        const title = node.arguments[0];
        const m = title && ts.isStringLiteralLike(title) ? /^\[(D\d+)\]/.exec(title.text) : null;
        if (m) ids.push(m[1] as string);
      }
      ts.forEachChild(node, visit);
    };
    visit(syntaxOf(file));
  }
  return ids;
}

describe('the dependency rule as written and as tested', () => {
  it('every rule in ARCHITECTURE.md has exactly one test, and every rule test is in ARCHITECTURE.md', () => {
    const documented = documentedRules();
    const tested = testedRules();
    expect(documented.length).toBeGreaterThanOrEqual(9);
    expect(new Set(documented).size, 'rule IDs are unique in ARCHITECTURE.md').toBe(documented.length);
    expect([...tested].sort()).toEqual([...documented].sort());
  });
});
