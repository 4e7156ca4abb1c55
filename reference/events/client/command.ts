import { fromRoot } from '../../../src/paths.js';

/** Absolute path of the compiled reference events client (`npm run build` writes it). */
export function referenceEventsClientScript(): string {
  return fromRoot('dist', 'reference', 'events', 'client', 'main.js');
}

/**
 * The reference events client as a command: an argv list, run with this Node. When specgate
 * was not built the script is missing, and the client-side cases error saying so.
 */
export function referenceEventsClientCommand(): string[] {
  return [process.execPath, referenceEventsClientScript()];
}
