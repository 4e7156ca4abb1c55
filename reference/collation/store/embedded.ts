import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';
import type { DocumentDatabaseTarget } from '../../../src/targets/database/types.js';
import type { Store } from './store.js';

/**
 * A store as the engine's document-database port, in the same process: each command is copied
 * in and its reply copied out (as JSON crosses a real connection), and a refusal (`ok: 0`)
 * becomes the port's DatabaseAnswerError, as a driver's server error does.
 */
export function embeddedDocuments(store: Store, description: string): DocumentDatabaseTarget {
  return {
    description,
    async command(doc, signal) {
      signal?.throwIfAborted();
      const reply = JSON.parse(JSON.stringify(store.command(JSON.parse(JSON.stringify(doc)) as Record<string, unknown>))) as Record<string, unknown>;
      if (reply.ok !== 1) throw DatabaseAnswerError.refusedCommand(reply);
      return reply;
    },
    async close() {},
  };
}
