import { fromRoot } from '../../../src/paths.js';
import { referenceNodeCommand } from '../../../src/targets/reference-node-command.js';

/** Absolute path of the compiled reference events client (`npm run build` writes it). */
export function referenceEventsClientScript(): string {
  return fromRoot('dist', 'reference', 'events', 'client', 'main.js');
}

/**
 * The reference events client as a command: an argv list, run with this Node (started
 * lean: it makes no TLS connection, see reference-node-command.ts). When specgate
 * was not built the script is missing, and the client-side cases error saying so.
 */
export function referenceEventsClientCommand(): string[] {
  return referenceNodeCommand(referenceEventsClientScript());
}
