import { SpecgateError, SpecgateErrorList, asSpecgateError } from '../errors.js';
import { loadSuite } from './loader/suite-loader.js';
import { sortCaseFiles } from './loader/user-case-files.js';
import type { LoadedSuite } from './model.js';
import { Registry } from './registry.js';
import type { SuiteModule } from './suite-module.js';

// A module of its own, apart from run.ts: what only reads suites (list, validate, init) does not
// load the runtime, the HTTP client and the body parsers a run needs.

/** Suites loaded and checked, with the registry of the names they use. */
export interface LoadedSuites {
  registry: Registry;
  suites: LoadedSuite[];
}

/**
 * Loads every selected suite completely (nothing runs half-loaded), with the cases of
 * `caseFiles` (files kept outside the suites, user-case-files.ts) that name it.
 */
export function loadSuites(modules: SuiteModule[], names: string[], caseFiles: readonly string[] = []): LoadedSuites {
  const registry = new Registry(modules);
  const sorted = caseFiles.length ? sortCaseFiles(caseFiles, modules.map((m) => m.name)) : undefined;
  const errors: SpecgateError[] = [...(sorted?.problems ?? [])];
  const suites: LoadedSuite[] = [];
  for (const name of names) {
    try {
      suites.push(loadSuite(registry.module(name), registry, process.cwd(), sorted?.bySuite.get(name) ?? []));
    } catch (e) {
      if (e instanceof SpecgateErrorList) errors.push(...e.errors);
      else errors.push(asSpecgateError(e));
    }
  }
  if (errors.length) throw new SpecgateErrorList(errors);
  return { registry, suites };
}
