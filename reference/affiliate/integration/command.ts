import { fromRoot } from '../../../src/paths.js';

/** Absolute path of the compiled reference affiliate integration (`npm run build` writes it). */
export function referenceIntegrationScript(): string {
  return fromRoot('dist', 'reference', 'affiliate', 'integration', 'main.js');
}

/**
 * The reference affiliate integration as a command: an argv list, run with this Node. When
 * specgate was not built the script is missing, and the integration cases error saying so.
 */
export function referenceIntegrationCommand(): string[] {
  return [process.execPath, referenceIntegrationScript()];
}
