import { fromRoot } from '../../../src/paths.js';
import { referenceNodeCommand } from '../../../src/targets/reference-node-command.js';

/** Absolute path of the compiled reference client (`npm run build` writes it). */
export function referenceClientScript(): string {
  return fromRoot('dist', 'reference', 'oauth', 'client', 'main.js');
}

/**
 * The reference client as a `client_command` value: an argv list, run with this Node, started lean
 * (it makes no TLS connection: src/targets/reference-node-command.ts). When specgate was
 * not built the script is missing, and the client-side cases error saying so.
 */
export function referenceClientCommand(): string[] {
  return referenceNodeCommand(referenceClientScript());
}
