/**
 * Which versions wrote the results `merge` is given. Results are judged with the installed
 * catalog, so a report written by another specgate or another version of a suite would be judged
 * by rules it did not run under: it is refused unless `--allow-version-mix` takes that on.
 */
import { SpecgateError } from '../src/errors.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { specgateVersion } from '../src/reporting/json.js';
import type { ReadReport } from './results-file.js';

/** The version a suite's results record: its own, or specgate's for a suite shipped with specgate. */
export function installedSuiteVersion(module: Pick<SuiteModule, 'version'>, specgate = specgateVersion()): string {
  return module.version ?? specgate;
}

/**
 * Compares the versions each report records with the installed ones.
 * @returns the warnings to print when `allowMix` let differing versions through.
 * @throws SpecgateError `SG_USAGE` naming every report of another version when `allowMix` is false.
 */
export function checkVersions(reports: readonly ReadReport[], modules: readonly SuiteModule[], allowMix: boolean, specgate = specgateVersion()): string[] {
  const problems: string[] = [];
  for (const r of reports) {
    if (r.version !== specgate) problems.push(`${r.file} was written by specgate ${r.version}, and this is specgate ${specgate}`);
    for (const s of r.suites) {
      const module = modules.find((m) => m.name === s.name);
      // a suite this specgate does not have is refused by the catalog check, with what to do
      if (!module) continue;
      const installed = installedSuiteVersion(module, specgate);
      if (s.version !== installed) problems.push(`${r.file} holds results of suite ${s.name} version ${s.version}, and the installed one is version ${installed}`);
    }
  }
  if (problems.length === 0) return [];
  if (!allowMix) {
    throw new SpecgateError(
      'SG_USAGE',
      `${problems.join('; ')}: rerun those parts with this specgate and these suites, or give --allow-version-mix to merge them anyway (the installed catalog then decides levels and texts)`,
    );
  }
  return problems.map((p) => `${p}: merged anyway (--allow-version-mix); the installed catalog decides levels, texts and which cases and requirements exist`);
}
