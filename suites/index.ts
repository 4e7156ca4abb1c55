import type { SuiteModule } from '../src/engine/suite-module.js';

/**
 * The one place that lists the built-in suites. Each entry is imported lazily, so a command
 * that needs one suite does not pay for loading the others' code.
 */
const BUILTIN: Record<string, () => Promise<SuiteModule>> = {
  plugin: async () => (await import('./plugin/index.js')).suite,
  oauth: async () => (await import('./oauth/index.js')).suite,
  merchant: async () => (await import('./merchant/index.js')).suite,
  events: async () => (await import('./events/index.js')).suite,
  affiliate: async () => (await import('./affiliate/index.js')).suite,
  'ctx-auth': async () => (await import('./ctx-auth/index.js')).suite,
  collation: async () => (await import('./collation/index.js')).suite,
};

export const builtinSuiteNames = Object.keys(BUILTIN);

/** The built-in suites, or only those of them named in `only` (in the order of the list above). */
export async function builtinSuites(only?: readonly string[]): Promise<SuiteModule[]> {
  const names = only ? builtinSuiteNames.filter((n) => only.includes(n)) : builtinSuiteNames;
  return Promise.all(names.map((n) => (BUILTIN[n] as () => Promise<SuiteModule>)()));
}
