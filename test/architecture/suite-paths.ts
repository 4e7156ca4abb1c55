import ts from 'typescript';
import { suiteNames, syntaxOf } from './import-graph.js';

/** A suite's file named in code: a path string (`'suites/plugin/data'`) or path parts (`fromRoot('suites', 'plugin')`). */
export interface SuitePathUse {
  file: string;
  line: number;
  /** `suites`, `reference` or `generators`. */
  area: string;
  suite: string;
}

const AREAS = new Set(['suites', 'reference', 'generators']);

/**
 * Every place a file's code (not its comments) names a path inside a concrete suite's folders:
 * a string holding `suites/<s>/`, `reference/<s>/` or `generators/<s>/`, or a call whose
 * arguments spell the same path in parts, as `fromRoot` and `join` take it.
 */
export function suitePathUses(file: string): SuitePathUse[] {
  return suitePathUsesIn(syntaxOf(file), new Set(suiteNames()));
}

/** The same, for a parsed file and a given set of suite names. */
export function suitePathUsesIn(sf: ts.SourceFile, known: ReadonlySet<string>): SuitePathUse[] {
  const file = sf.fileName;
  const out: SuitePathUse[] = [];
  const record = (node: ts.Node, area: string, suite: string): void => {
    if (!known.has(suite)) return;
    out.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, area, suite });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      // an import specifier is an import, judged by the import rules, not a data read
      const parent = node.parent;
      const isSpecifier = parent !== undefined && (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword));
      if (!isSpecifier) for (const m of node.text.matchAll(/(?:^|[^\w.-])(suites|reference|generators)\/([\w-]+)\//g)) record(node, m[1] as string, m[2] as string);
    }
    if (ts.isCallExpression(node)) {
      const parts = node.arguments.map((a) => (ts.isStringLiteralLike(a) ? a.text : undefined));
      parts.forEach((p, i) => {
        const next = parts[i + 1];
        if (p !== undefined && AREAS.has(p) && next !== undefined) record(node, p, next);
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
