import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../src/errors.js';
import { loadBaseline } from '../src/engine/baseline.js';
import { loadSuites } from '../src/engine/load-suites.js';
import { schemaErrors } from '../src/engine/loader/schema-check.js';
import { readYaml, type YamlSource } from '../src/engine/loader/yaml-source.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { checkProfile } from './profile-check.js';
import { profileProblemsError } from './profile-problems.js';
import type { SelectionFlags } from './selection-flags.js';
import type { TextOut } from './text-out.js';

/**
 * `specgate validate` of a file outside every known suite's folder: a baseline, a target profile
 * (every problem at once, profile-check.ts), or a suite or case file checked against its schema,
 * with the suites its cases name when it is a case file kept outside (`run --cases`).
 */
export function checkStandalone(file: string, modules: SuiteModule[], selection: SelectionFlags, out: TextOut): void {
  let src: YamlSource;
  try {
    src = readYaml(file);
  } catch (e) {
    // YAML that does not parse says nothing of what the file is: one with a suites: line is read as a profile
    if (e instanceof SpecgateError && readsAsProfile(file)) checkWholeProfile(file, modules, selection, out);
    throw e;
  }
  const data = src.data;
  if (data && typeof data === 'object' && !Array.isArray(data) && 'expected-failures' in data) return void loadBaseline(file);
  if (data && typeof data === 'object' && !Array.isArray(data) && 'suites' in data) return checkWholeProfile(file, modules, selection, out);
  const kind = basename(file) === 'requirements.yaml' ? 'requirements' : basename(file) === 'suite.yaml' ? 'suite' : 'cases';
  const found = schemaErrors(src, kind, 'SG_SUITE_SCHEMA');
  if (found.length) throw new SpecgateErrorList(found);
  if (kind === 'cases') checkKeptCases(file, src.data as { suite?: unknown }[], modules);
}

/**
 * A case file kept outside the suites (`run --cases`) whose cases name their suites is checked
 * as a run loads it: with those suites, requirement IDs, names and case IDs included.
 */
function checkKeptCases(file: string, items: { suite?: unknown }[], modules: SuiteModule[]): void {
  const named = new Set(items.map((c) => c.suite).filter((s): s is string => typeof s === 'string'));
  if (!named.size) return;
  loadSuites(modules, modules.map((m) => m.name).filter((n) => named.has(n)), [file]);
}

/** Every problem of a target profile at once, by section (profile-check.ts), for a run of the selection; its warnings go to `out`. */
function checkWholeProfile(file: string, modules: SuiteModule[], selection: SelectionFlags, out: TextOut): void {
  const check = checkProfile(modules, file, process.env, selection);
  for (const w of check.warnings ?? []) out.write(`warn ${file}: ${w}\n`);
  if (check.problems.length) throw profileProblemsError(check);
}

/** Whether a file that does not parse has a top-level `suites:` key, as a target profile has. */
function readsAsProfile(file: string): boolean {
  try {
    return /^suites\s*:/m.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}
