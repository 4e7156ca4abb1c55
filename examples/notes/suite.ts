import type { SuiteModule } from '../../src/engine/suite-module.js';
import { fromRoot } from '../../src/paths.js';
import { startNotesServer } from './server.js';
import { batchCreate } from './transitions.js';

/** The token the example service accepts (it is an example: nothing to keep secret). */
export const NOTES_TOKEN = 'notes-example-token';

/**
 * The worked example of an HTTP API described as data: a ten-operation notes service
 * (notes-spec.txt) whose cases are the engine's generated route checks and one stateful
 * sequence. `specgate run --suite-module dist/examples/notes/suite.js` runs it against the
 * embedded correct server; `--notes <url>` points it at another one.
 */
export const suite: SuiteModule = {
  name: 'notes',
  title: 'notes API (worked example of API tables)',
  dir: fromRoot('examples/notes/suite'),
  apiModels: { 'batch-create': batchCreate },
  reference: {
    async start({ port }) {
      const server = await startNotesServer({ token: NOTES_TOKEN, ...(port ? { port } : {}) });
      return { description: `notes service at ${server.url}`, vars: { api_url: server.url, api_token: NOTES_TOKEN }, stop: () => server.stop() };
    },
  },
  targetOptions: [
    {
      flag: 'notes',
      valueName: 'url',
      description: 'run the notes example against the service at this base URL (token: the example token)',
      vars: (url) => ({ api_url: url, api_token: NOTES_TOKEN }),
    },
  ],
};
