import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SpecgateError } from '../../../src/errors.js';
import { loadApiTable } from '../../../src/engine/api/load-table.js';
import type { ApiTable } from '../../../src/engine/api/table.js';
import { loadSchemaFiles } from '../../../src/engine/loader/schema-files.js';
import { Registry } from '../../../src/engine/registry.js';
import { fromRoot } from '../../../src/paths.js';

/** A registry holding a suite folder's schema files, as the loader builds it. */
export function registryFor(suite: string, dir: string): Registry {
  const registry = new Registry([]);
  const errors: SpecgateError[] = [];
  registry.addSchemas(suite, loadSchemaFiles(dir, (f) => f, errors));
  if (errors.length) throw errors[0];
  return registry;
}

/** The notes example's API table, loaded the way the loader does. */
export function notesTable(): ApiTable {
  const dir = fromRoot('examples/notes/suite');
  const errors: SpecgateError[] = [];
  const table = loadApiTable({ name: 'notes', dir }, registryFor('notes', dir), (f) => f, errors);
  if (!table || errors.length) throw new Error(`the example table does not load: ${errors.map((e) => e.message).join('\n')}`);
  return table;
}

/** A throwaway suite folder with the given files (path -> text); remove() deletes it. */
export function suiteDir(files: Record<string, string>): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-api-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
