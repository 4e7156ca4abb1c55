import { fromRoot } from '../../../src/paths.js';

/** Absolute path of the compiled reference client (`npm run build` writes it). */
export function referenceClientScript(): string {
  return fromRoot('dist', 'reference', 'oauth', 'client', 'main.js');
}

/**
 * The reference client as a `client_command` value: an argv list, run with this Node. When
 * specgate was not built the script is missing, and the client-side cases error saying so.
 */
export function referenceClientCommand(): string[] {
  return [process.execPath, referenceClientScript()];
}
