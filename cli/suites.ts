import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { SpecgateError } from '../src/errors.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { builtinSuites } from '../suites/index.js';

/**
 * The suites this run knows: the built-in ones, plus modules named with --suite-module
 * (a compiled JS file exporting `suite: SuiteModule`), for suites kept outside this repository.
 */
export async function knownSuites(extra: string[] = []): Promise<SuiteModule[]> {
  const modules = await builtinSuites();
  for (const file of extra) {
    let loaded: { suite?: SuiteModule };
    try {
      loaded = (await import(pathToFileURL(resolve(file)).href)) as { suite?: SuiteModule };
    } catch (e) {
      throw new SpecgateError('SG_USAGE', `--suite-module ${file}: cannot load it (${(e as Error).message}); give a compiled .js file that exports \`suite\``);
    }
    if (!loaded.suite?.name || !loaded.suite.dir) throw new SpecgateError('SG_USAGE', `--suite-module ${file}: it does not export \`suite\` (a SuiteModule with name and dir)`);
    const i = modules.findIndex((m) => m.name === loaded.suite?.name);
    if (i >= 0) modules.splice(i, 1);
    modules.push(loaded.suite);
  }
  return modules;
}
