import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importsOf, syntaxOf } from './import-graph.js';

/**
 * What the CLI loads before it does anything is what every command pays for, `--version` and
 * `--help` included (docs/performance.md, "CLI start"): the modules a file loads when it is
 * imported (its static imports that are not type-only, followed through) are checked here, so a
 * new import cannot quietly put a suite or a heavy package back on the start path.
 */

/** The project files `file` loads when imported, itself included (static, non-type imports followed through). */
function loadedBy(file: string): Set<string> {
  const seen = new Set([file]);
  const queue = [file];
  for (let f = queue.shift(); f !== undefined; f = queue.shift())
    for (const e of importsOf(f)) if (!e.typeOnly && !e.dynamic && !seen.has(e.to)) (seen.add(e.to), queue.push(e.to));
  return seen;
}

/** The packages (`undici`, `@scope/name`) a file imports statically, type-only imports left out. */
function packagesOf(file: string): string[] {
  const out: string[] = [];
  for (const node of syntaxOf(file).statements) {
    if (!ts.isImportDeclaration(node) || !ts.isStringLiteral(node.moduleSpecifier)) continue;
    const spec = node.moduleSpecifier.text;
    const clause = node.importClause;
    const named = clause?.namedBindings;
    const typeOnly = clause?.isTypeOnly === true || (clause?.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((x) => x.isTypeOnly));
    if (typeOnly || spec.startsWith('.') || spec.startsWith('node:')) continue;
    out.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
  }
  return out;
}

/** `package (by file)` for every package the files load. */
function packagesLoaded(files: Iterable<string>): string[] {
  return [...files].flatMap((f) => packagesOf(f).map((p) => `${p} (by ${f})`)).sort();
}

/**
 * What reading suites does not import: what only a run needs (the HTTP client, the body
 * parsers, browsers, databases, codecs), and the YAML parser and ajv's compiler, which the
 * loader requires when a file is not in the parse cache or a validator not compiled there.
 * (fast-check stays: the engine's API verifiers sample bodies with it, and the suites'
 * generators, which a suite's module holds, are its arbitraries.)
 */
const RUN_ONLY_PACKAGES = ['undici', 'fast-xml-parser', 'lossless-json', 'protobufjs', 'playwright-core', 'pg', 'mongodb', 'icu', 'yaml', 'ajv'];

/** What showing a kept listing may load: the command, the cache and its stamps, the names of the built-in suites. */
const KEPT_LISTING_FILES = ['cli/list-cache.ts', 'cli/list-command.ts', 'cli/listing-shape.ts', 'cli/suite-listing.ts', 'src/engine/loader/input-stamp.ts', 'src/engine/loader/parse-cache.ts', 'src/errors.ts', 'src/paths.ts', 'suites/index.ts'];

/** What printing what an earlier validate found may load: the command's light part, the caches and their stamps, the built-in suites' names. */
const KEPT_FOUND_FILES = [
  'cli/suite-shapes.ts', 'cli/suites.ts', 'cli/validate-builtin.ts', 'cli/validate-outcomes.ts', 'src/engine/loader/input-stamp.ts', 'src/engine/loader/parse-cache.ts',
  'src/engine/loader/suite-shape.ts', 'src/errors.ts', 'src/paths.ts', 'suites/index.ts',
];

describe('what the CLI loads at start', () => {
  it('bin/specgate.js starts on cli/main.ts, which loads no suite, no command and no package but commander', () => {
    const loaded = loadedBy('cli/main.ts');
    expect([...loaded].filter((f) => /^(suites\/(?!index\.ts$)|reference\/|generators\/)/.test(f))).toEqual([]);
    expect([...loaded].filter((f) => /^cli\/.*-command\.ts$/.test(f))).toEqual([]);
    expect(packagesLoaded(loaded)).toEqual(['commander (by cli/main.ts)']);
  });

  it('reading suites (list, validate, init) loads neither the runtime nor what only a run needs', () => {
    for (const entry of ['src/engine/load-suites.ts', 'cli/list-loaded.ts']) {
      const loaded = loadedBy(entry);
      expect([...loaded].filter((f) => f.startsWith('src/engine/runtime/') || f === 'src/engine/run.ts' || f === 'src/targets/http-client.ts'), entry).toEqual([]);
      expect(packagesLoaded(loaded).filter((p) => RUN_ONLY_PACKAGES.includes(p.split(' ')[0] as string)), entry).toEqual([]);
    }
  });

  it('list, when its listing is kept, loads no suite, no package and of the engine only the cache it reads', () => {
    // a kept listing (cli/list-cache.ts) is shown by these alone; the suites and the loader come
    // in by dynamic import (cli/list-loaded.ts) only when the listing is not kept
    const loaded = loadedBy('cli/list-command.ts');
    expect(packagesLoaded(loaded)).toEqual([]);
    expect([...loaded].sort()).toEqual(KEPT_LISTING_FILES);
  });

  it('validate of built-in suite files, when what it found is kept, loads no suite, no package and of the engine only the caches it reads', () => {
    // the loader (cli/validate-command.ts), the names kept shapes give (shape-names.ts) and the
    // suites' code come in by dynamic import only when what was found is not kept
    const loaded = loadedBy('cli/validate-builtin.ts');
    expect(packagesLoaded(loaded)).toEqual([]);
    expect([...loaded].sort()).toEqual([...KEPT_FOUND_FILES].sort());
  });

  it('validate against kept shapes loads the loader, but neither a suite nor the API verifiers, fast-check or the registry', () => {
    const loaded = new Set([...loadedBy('cli/validate-command.ts'), ...loadedBy('src/engine/loader/shape-names.ts')]);
    expect(loaded.has('src/engine/loader/suite-loader.ts')).toBe(true);
    expect([...loaded].filter((f) => /^(suites\/|reference\/|generators\/|src\/engine\/api\/verifiers\/)/.test(f) || f === 'src/engine/registry.ts')).toEqual([]);
    expect(packagesLoaded(loaded).filter((p) => [...RUN_ONLY_PACKAGES, 'fast-check'].includes(p.split(' ')[0] as string))).toEqual([]);
  });

  it('finds what it looks for: the run loads the runtime and the HTTP client', () => {
    const loaded = loadedBy('src/engine/run.ts');
    expect(loaded.has('src/targets/http-client.ts')).toBe(true);
    expect(packagesLoaded(loaded).length).toBeGreaterThan(0);
  });

  it('a run loads undici only when it sends a request, and yaml only when it writes or parses some (undici-lazy.ts, yaml-package.ts)', () => {
    const loaded = loadedBy('cli/run-command.ts');
    expect(loaded.has('src/engine/run.ts') && loaded.has('src/targets/undici-lazy.ts') && loaded.has('src/yaml-package.ts')).toBe(true);
    expect(packagesLoaded(loaded).filter((p) => p.startsWith('undici ') || p.startsWith('yaml '))).toEqual([]);
  });

  it('finds what it looks for: a listing not kept loads the suites with the engine', () => {
    const loaded = loadedBy('cli/list-loaded.ts');
    expect(loaded.has('src/engine/load-suites.ts')).toBe(true);
    expect(packagesLoaded(loaded).length).toBeGreaterThan(0);
  });
});
