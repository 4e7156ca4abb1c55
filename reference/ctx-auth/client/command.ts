import { fromRoot } from '../../../src/paths.js';

/** Absolute path of the compiled reference ctx-auth client (`npm run build` writes it). */
export function referenceCtxClientScript(): string {
  return fromRoot('dist', 'reference', 'ctx-auth', 'client', 'main.js');
}

/**
 * The reference ctx-auth client as a command: an argv list, run with this Node. When specgate
 * was not built the script is missing, and the client-side cases error saying so.
 */
export function referenceCtxClientCommand(): string[] {
  return [process.execPath, referenceCtxClientScript()];
}
