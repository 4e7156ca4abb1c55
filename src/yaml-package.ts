import { createRequire } from 'node:module';

type YamlLib = typeof import('yaml');
const require = createRequire(import.meta.url);
let yamlLib: YamlLib | undefined;

/**
 * The yaml package, required at its first use rather than with the modules that use it: loading
 * it costs about 35 ms of CPU, and most commands need it only on some paths (a text not in the
 * parse cache, a TAP report, a regression case written), if at all.
 */
export function yamlPackage(): YamlLib {
  return (yamlLib ??= require('yaml') as YamlLib);
}
