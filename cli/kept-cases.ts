/**
 * `--cases <dir>`: case files a project keeps beside an installed suite, whose own `cases/`
 * folder is not the project's to add to — the regression cases a failed run wrote, and cases
 * written by hand in the same format. Each case names its suite (`suite:`); the loader
 * (src/engine/loader/user-case-files.ts) checks them as that suite's own.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { SpecgateError } from '../src/errors.js';
import { yamlFilesUnder } from '../src/engine/loader/suite-loader.js';

/**
 * The case files `--cases` names: every `.yaml` or `.yml` file under each folder given (at any
 * depth, in name order), or a file given itself; each once.
 * @throws SpecgateError `SG_USAGE` for a path that does not exist or a file that is not YAML.
 */
export function keptCaseFiles(paths: readonly string[] | undefined): string[] {
  const files: string[] = [];
  for (const path of paths ?? []) {
    let folder: boolean;
    try {
      folder = statSync(path).isDirectory();
    } catch (e) {
      throw new SpecgateError('SG_USAGE', `--cases ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)}); give a folder of case files, such as the regressions folder a failed run wrote`);
    }
    if (folder) files.push(...yamlFilesUnder(path));
    else if (/\.ya?ml$/.test(path)) files.push(path);
    else throw new SpecgateError('SG_USAGE', `--cases ${path}: not a folder or a .yaml case file; give a folder of case files, such as the regressions folder a failed run wrote`);
  }
  const seen = new Set<string>();
  return files.filter((f) => !seen.has(resolve(f)) && Boolean(seen.add(resolve(f))));
}
