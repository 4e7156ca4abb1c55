/**
 * Starts the example notes service and prints its URL: `node dist/examples/notes/serve.js`
 * for the correct one, `--faulty` for the planted-fault copy (pages ignore limit, delete keeps
 * the note), `--create-202` for one that answers a created note with 202 (one defect that other
 * rules rest on). Stops on Ctrl-C.
 */
import { startNotesServer } from './server.js';
import { NOTES_TOKEN } from './suite.js';

const faulty = process.argv.includes('--faulty');
const portAt = process.argv.indexOf('--port');
const port = portAt > 0 ? Number(process.argv[portAt + 1]) : 0;
const accepted = process.argv.includes('--create-202');
const faults = { ...(faulty ? { ignoreLimit: true, keepDeleted: true } : {}), ...(accepted ? { createAccepted: true } : {}) };
const server = await startNotesServer({ token: NOTES_TOKEN, port, faults });
process.stdout.write(`${faulty || accepted ? 'faulty ' : ''}notes service at ${server.url}\n`);
const stop = (): void => void server.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
