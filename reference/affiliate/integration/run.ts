import { isSpecgateError } from '../../../src/errors.js';
import { REFERENCE_BEHAVIOUR, type IntegrationBehaviour } from './behaviour.js';
import { INTEGRATION_EXIT, readIntegrationEnv } from './contract.js';
import { integrationServer } from './serve.js';

/**
 * Starts an affiliate integration with `behaviour` on 127.0.0.1:$PORT, with the launch
 * contract's variables (README.md); it serves until SIGTERM or SIGINT.
 */
export function integrationMain(behaviour: IntegrationBehaviour = REFERENCE_BEHAVIOUR): void {
  let env;
  try {
    env = readIntegrationEnv(process.env);
  } catch (e) {
    process.stderr.write(`${isSpecgateError(e) ? e.message : String(e)}\n`);
    process.exit(INTEGRATION_EXIT.usage);
  }
  const server = integrationServer(env, behaviour);
  // long enough for a client to reuse the connection (undici keeps a 2 s margin under the
  // server's advertised timeout: at 1 s every request opened a connection of its own)
  server.keepAliveTimeout = 5000;
  server.on('error', (e) => {
    process.stderr.write(`cannot listen on 127.0.0.1:${env.port}: ${e.message}\n`);
    process.exit(INTEGRATION_EXIT.failed);
  });
  server.listen(env.port, '127.0.0.1', () => process.stdout.write(`affiliate integration listening on http://127.0.0.1:${env.port}\n`));
  const stop = (): void => {
    server.closeAllConnections();
    server.close(() => process.exit(INTEGRATION_EXIT.ok));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
