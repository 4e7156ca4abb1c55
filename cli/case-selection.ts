/**
 * `--case` checked against the cases the selected suites define, before anything runs: an ID
 * that selects nothing would otherwise leave a gate green with zero cases.
 */
import { SpecgateError } from '../src/errors.js';
import { loadSuites, type LoadedSuites } from '../src/engine/load-suites.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { didYouMean } from './suggest.js';

/** ` (its cases include a, b, ... and N more)` when no name is near enough to suggest. */
function someOf(names: readonly string[]): string {
  const shown = names.slice(0, 5);
  return names.length ? ` (its cases include ${shown.join(', ')}${names.length > shown.length ? ` and ${names.length - shown.length} more` : ''})` : ' (no cases)';
}

/**
 * Throws when a wanted case (written `<case-id>` or `<suite>/<case-id>`) is no case of the
 * suites that run (with the cases of `caseFiles`, `--cases`), naming the nearest case IDs.
 * Returns the suites it loaded to look the names up, for the run to use rather than load them again.
 * @throws SpecgateError `SG_USAGE`; suite load errors as the loader reports them.
 */
export function checkCaseSelection(modules: SuiteModule[], suiteNames: string[], wanted: readonly string[], caseFiles: readonly string[] = []): LoadedSuites {
  const loaded = loadSuites(modules, suiteNames, caseFiles);
  const { suites } = loaded;
  const bare = suites.flatMap((s) => s.cases.map((c) => c.id));
  const qualified = suites.flatMap((s) => s.cases.map((c) => `${s.name}/${c.id}`));
  const known = new Set([...bare, ...qualified]);
  const missing = wanted.filter((w) => !known.has(w));
  if (!missing.length) return loaded;
  const lines = missing.map((w) => `no case "${w}" in ${suiteNames.length > 1 ? 'suites' : 'suite'} ${suiteNames.join(', ')}${didYouMean(w, w.includes('/') ? qualified : bare) || someOf(w.includes('/') ? qualified : bare)}`);
  throw new SpecgateError('SG_USAGE', `${lines.join('\n')}\n(\`specgate list --suite ${suiteNames.join(',')}\` lists the cases; fix --case so every ID selects a case)`, { missing });
}
