import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { SpecgateError } from '../src/errors.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { builtinSuiteNames, builtinSuites } from '../suites/index.js';

/**
 * The suites this run knows: the built-in ones, plus modules named with --suite-module
 * (a compiled JS file exporting `suite: SuiteModule`), for suites kept outside this repository.
 * With `only`, of the built-in suites just those it names are loaded (a command about a few
 * suites does not pay for loading the others' code); should it name a suite that is neither
 * built in nor one of the extra modules, all are loaded, so the error that follows can list
 * every suite there is.
 */
export async function knownSuites(extra: string[] = [], only?: readonly string[]): Promise<SuiteModule[]> {
  const loaded: SuiteModule[] = [];
  for (const file of extra) loaded.push(await loadSuiteModule(file));
  const unknown = only?.some((n) => !builtinSuiteNames.includes(n) && !loaded.some((m) => m.name === n));
  const modules = await builtinSuites(unknown ? undefined : only);
  for (const suite of loaded) {
    const i = modules.findIndex((m) => m.name === suite.name);
    if (i >= 0) modules.splice(i, 1);
    modules.push(suite);
  }
  return modules;
}

async function loadSuiteModule(file: string): Promise<SuiteModule> {
  let loaded: { suite?: SuiteModule };
  try {
    loaded = (await import(pathToFileURL(resolve(file)).href)) as { suite?: SuiteModule };
  } catch (e) {
    throw new SpecgateError('SG_USAGE', `--suite-module ${file}: cannot load it (${(e as Error).message}); give a compiled .js file that exports \`suite\``);
  }
  if (!loaded.suite?.name || !loaded.suite.dir) throw new SpecgateError('SG_USAGE', `--suite-module ${file}: it does not export \`suite\` (a SuiteModule with name and dir)`);
  return loaded.suite;
}
