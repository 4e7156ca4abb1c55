import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSuite } from '../../src/engine/loader/suite-loader.js';
import type { LoadedSuite } from '../../src/engine/model.js';
import { Registry } from '../../src/engine/registry.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { fromRoot } from '../../src/paths.js';

/** A suite's catalog loaded from a throwaway folder, with the registry it was loaded with. */
export interface CatalogCopy {
  suite: LoadedSuite;
  registry: Registry;
  /** Removes the throwaway folder. */
  remove(): void;
}

/**
 * The catalog of the built-in suite `name` alone, through the engine's loader: a throwaway
 * folder holding only the suite files named in `copy` (`requirements.yaml`, `schemas`, ...) and
 * the files of `write` (name to text), so the cases, judged by their own tests, cannot hide a
 * catalog problem. Messages name files relative to that folder; a load error removes it.
 */
export function loadCatalogCopy(name: string, copy: readonly string[], write: Readonly<Record<string, string>> = {}): CatalogCopy {
  const source = fromRoot('suites', name);
  const dir = mkdtempSync(join(tmpdir(), `specgate-${name}-catalog-`));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    for (const f of copy) cpSync(join(source, f), join(dir, f), { recursive: true });
    for (const [f, text] of Object.entries(write)) writeFileSync(join(dir, f), text);
    const module: SuiteModule = { name, dir };
    const registry = new Registry([module]);
    return { suite: loadSuite(module, registry, dir), registry, remove };
  } catch (e) {
    remove();
    throw e;
  }
}
