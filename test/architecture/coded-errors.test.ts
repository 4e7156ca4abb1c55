import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allSourceFiles, parseSource, syntaxOf } from './import-graph.js';

/**
 * specgate throws SpecgateError with a stable code (src/errors.ts), so every error maps to an
 * exit code and says what to do; a plain `Error` reaches the user as "a bug in specgate".
 * Found by syntax, so a comment or a string that mentions one does not count.
 */
function plainErrors(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  const isPlainError = (e: ts.Expression | undefined): boolean =>
    e !== undefined && (ts.isNewExpression(e) || ts.isCallExpression(e)) && ts.isIdentifier(e.expression) && e.expression.text === 'Error';
  const visit = (node: ts.Node): void => {
    const thrown = ts.isThrowStatement(node) && isPlainError(node.expression);
    // `reject(new Error(...))` is the same throw, made through a promise
    const rejected = ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'reject' && isPlainError(node.arguments[0]);
    const rejectedPromise =
      ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'Promise' && node.expression.name.text === 'reject' && isPlainError(node.arguments[0]);
    if (thrown || rejected || rejectedPromise) out.push(`${sf.fileName}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: ${node.getText(sf).slice(0, 90)}`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('coded errors', () => {
  it('finds plain errors thrown or rejected, not SpecgateErrors or mentions', () => {
    const sf = parseSource(
      'src/sample.ts',
      [
        "throw new Error('a');",
        "throw Error('b');",
        "return new Promise((resolve, reject) => reject(new Error('c')));",
        "return Promise.reject(new Error('d'));",
        "throw new SpecgateError('SG_CONFIG', 'e');",
        "// throw new Error('f')",
        "const s = \"throw new Error('g')\";",
      ].join('\n'),
    );
    expect(plainErrors(sf).map((l) => l.split(':')[1])).toEqual(['1', '2', '3', '4']);
  });

  it('no source file in src/, cli/, suites/, reference/ or generators/ throws a plain Error', () => {
    expect(allSourceFiles().flatMap((f) => plainErrors(syntaxOf(f)))).toEqual([]);
  });
});
