import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of the project's own sources, read with the TypeScript parser (so comments,
 * strings and `import type` are told apart from real imports), for the architecture tests.
 */
export const root = resolve(import.meta.dirname, '..', '..');

/** The top-level folders that hold the product's sources (tests and benchmarks are not part of it). */
export const SOURCE_ROOTS = ['src', 'cli', 'suites', 'reference', 'generators'] as const;

/** One relative import of a source file, resolved to a project path (`src/engine/model.ts`). */
export interface ImportEdge {
  from: string;
  /** Project-relative path of the imported file (with `.ts`), or of the folder when unresolved. */
  to: string;
  /** `import type`, `export type`, or every named element marked `type`: erased when compiled. */
  typeOnly: boolean;
  /** `import('...')`: loaded on demand, still a dependency. */
  dynamic: boolean;
}

/** Every `.ts` file below `dir` (project-relative paths, `/`-separated, sorted). */
export function sourceFiles(dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const name of readdirSync(abs).sort()) {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Every source file of the product. */
export function allSourceFiles(): string[] {
  return SOURCE_ROOTS.flatMap((d) => sourceFiles(d));
}

const parsed = new Map<string, ts.SourceFile>();

/** The syntax tree of TypeScript text. */
export function parseSource(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

/** The parsed syntax tree of a project file (cached: several tests read the same files). */
export function syntaxOf(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (!sf) {
    sf = parseSource(file, readFileSync(join(root, file), 'utf8'));
    parsed.set(file, sf);
  }
  return sf;
}

/** The project path a relative specifier names: `./x.js` is written for `./x.ts`. */
function resolveSpecifier(from: string, spec: string): string {
  const base = relative(root, resolve(dirname(join(root, from)), spec)).split('\\').join('/');
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, `${base}/index.ts`]) {
    if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return candidate;
  }
  return base.replace(/\.js$/, '.ts');
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x.js'` runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

const edgeCache = new Map<string, ImportEdge[]>();

/** The relative imports of one project file (package imports such as `yaml` are not part of the graph). */
export function importsOf(file: string): ImportEdge[] {
  const hit = edgeCache.get(file);
  if (hit) return hit;
  const edges = importsIn(syntaxOf(file));
  edgeCache.set(file, edges);
  return edges;
}

/** The relative imports written in one parsed file (its `fileName` is its project path). */
export function importsIn(sf: ts.SourceFile): ImportEdge[] {
  const file = sf.fileName;
  const edges: ImportEdge[] = [];
  const add = (spec: string, typeOnly: boolean, dynamic: boolean): void => {
    if (spec.startsWith('.')) edges.push({ from: file, to: resolveSpecifier(file, spec), typeOnly, dynamic });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text, isTypeOnlyImport(node), false);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      add(node.moduleSpecifier.text, isTypeOnlyExport(node), false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      add(node.argument.literal.text, true, false);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) add(arg.text, false, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

/** `from imports to` lines for every import of `files` whose target breaks `forbidden`. */
export function violations(files: readonly string[], forbidden: (edge: ImportEdge) => boolean): string[] {
  return files.flatMap((f) => importsOf(f).filter(forbidden).map((e) => `${e.from} imports ${e.to}`));
}

/** True when `path` is `prefix` itself or lies below the folder `prefix`. */
export function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/** The suites the project ships: the folders of `suites/`. */
export function suiteNames(): string[] {
  return readdirSync(join(root, 'suites')).filter((n) => statSync(join(root, 'suites', n)).isDirectory()).sort();
}

/**
 * The suite a file belongs to (`suites/<s>/**`, `reference/<s>/**`, `generators/<s>/**`),
 * or undefined for engine, CLI and shared files.
 */
export function suiteOf(file: string): string | undefined {
  const [top, name, ...rest] = file.split('/');
  if ((top === 'suites' || top === 'reference' || top === 'generators') && name && rest.length > 0) return name;
  return undefined;
}
