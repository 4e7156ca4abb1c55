import { fromRoot } from '../../../src/paths.js';
import { referenceNodeCommand } from '../../../src/targets/reference-node-command.js';

/** Absolute path of the compiled reference affiliate integration (`npm run build` writes it). */
export function referenceIntegrationScript(): string {
  return fromRoot('dist', 'reference', 'affiliate', 'integration', 'main.js');
}

/**
 * The reference affiliate integration as a command: an argv list, run with this Node, started lean
 * (it makes no TLS connection: src/targets/reference-node-command.ts). When specgate was
 * not built the script is missing, and the integration cases error saying so.
 */
export function referenceIntegrationCommand(): string[] {
  return referenceNodeCommand(referenceIntegrationScript());
}
