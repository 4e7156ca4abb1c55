import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allSourceFiles, parseSource, syntaxOf } from './import-graph.js';

/**
 * One YAML-with-positions stack (src/engine/loader/yaml-source.ts) and one ajv stack
 * (src/engine/loader/schema-check.ts) serve suite files, profiles, baselines and every other
 * file a user writes, so positions and rule messages read the same everywhere.
 */
const YAML_OWNER = 'src/engine/loader/yaml-source.ts';
const AJV_OWNER = 'src/engine/loader/schema-check.ts';
/** What of the `yaml` package parses (writing YAML, as the TAP reporter does, is not parsing). */
const YAML_PARSERS = new Set(['parse', 'parseDocument', 'parseAllDocuments', 'LineCounter', 'Parser', 'Composer', 'Lexer']);

function stackUses(sf: ts.SourceFile): { yamlParsers: string[]; ajvMade: number } {
  const yamlParsers: string[] = [];
  let ajvMade = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text === 'yaml') {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      if (named && ts.isNamespaceImport(named)) yamlParsers.push('* as yaml');
      if (clause?.name) yamlParsers.push('default');
      if (named && ts.isNamedImports(named))
        for (const el of named.elements) if (YAML_PARSERS.has((el.propertyName ?? el.name).text)) yamlParsers.push(el.name.text);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Ajv') ajvMade++;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { yamlParsers, ajvMade };
}

describe('one YAML stack and one ajv stack', () => {
  it('sees parser imports and Ajv constructions, not YAML writers', () => {
    const sf = parseSource(
      'src/sample.ts',
      ["import { stringify } from 'yaml';", "import { parseDocument as p, LineCounter } from 'yaml';", "import { Ajv } from 'ajv';", 'const a = new Ajv({});'].join('\n'),
    );
    expect(stackUses(sf)).toEqual({ yamlParsers: ['p', 'LineCounter'], ajvMade: 1 });
  });

  it(`only ${YAML_OWNER} parses YAML`, () => {
    const owners = allSourceFiles().filter((f) => stackUses(syntaxOf(f)).yamlParsers.length > 0);
    expect(owners).toEqual([YAML_OWNER]);
  });

  it(`only ${AJV_OWNER} makes an Ajv`, () => {
    const owners = allSourceFiles().filter((f) => stackUses(syntaxOf(f)).ajvMade > 0);
    expect(owners).toEqual([AJV_OWNER]);
  });
});
