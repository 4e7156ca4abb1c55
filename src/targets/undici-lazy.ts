import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/**
 * undici, loaded at its first use rather than with the HTTP client's module. Every run makes
 * an HTTP client for each live suite, whether or not the suite sends anything, and loading
 * undici costs about 85 ms of CPU, on the path before a run's first case: a suite whose cases
 * only start processes (the plugin suite) never loads it. undici is a CommonJS package, so it is
 * required synchronously, the same instance an `import` of it gets.
 */
let loaded: typeof Undici | undefined;

/** The undici package, loaded once. */
export function undici(): typeof Undici {
  loaded ??= createRequire(import.meta.url)('undici') as typeof Undici;
  return loaded;
}
