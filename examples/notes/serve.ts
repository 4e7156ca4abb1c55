/**
 * Starts the example notes service and prints its URL: `node dist/examples/notes/serve.js`
 * for the correct one, `--faulty` for the planted-fault copy (pages ignore limit, delete keeps
 * the note). Stops on Ctrl-C.
 */
import { startNotesServer } from './server.js';
import { NOTES_TOKEN } from './suite.js';

const faulty = process.argv.includes('--faulty');
const portAt = process.argv.indexOf('--port');
const port = portAt > 0 ? Number(process.argv[portAt + 1]) : 0;
const server = await startNotesServer({ token: NOTES_TOKEN, port, ...(faulty ? { faults: { ignoreLimit: true, keepDeleted: true } } : {}) });
process.stdout.write(`${faulty ? 'faulty ' : ''}notes service at ${server.url}\n`);
const stop = (): void => void server.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
