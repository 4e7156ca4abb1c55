import type { Db, MongoClient } from 'mongodb';
import { SpecgateError } from '../../errors.js';
import { answerDeadline } from './answer-deadline.js';
import { plainFromBson } from './bson-plain.js';
import { DatabaseAnswerError } from './database-errors.js';
import type { DatabaseConfig, DocumentDatabaseTarget } from './types.js';
import { oneAtATime } from './one-at-a-time.js';

/** How long finding the server may take unless the profile says (a missing server is reported quickly). */
const DEFAULT_SELECT_MS = 5_000;
/** How long one command may take unless the profile says. */
const DEFAULT_COMMAND_MS = 30_000;

/** `mongodb://user:password@host/db` without its password, for reports. */
export function describeMongoUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^:@/?]*):[^@/?]*@/i, '$1$2@');
}

/** The hosts part of a URL (`h1:27017,h2:27017`), for messages. */
function hostsOf(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?]*@)?([^/?]*)/i.exec(url)?.[1] || url;
}

/**
 * A MongoDB database (`mongodb://` or `mongodb+srv://`) as a {@link DocumentDatabaseTarget},
 * through the official driver, loaded only when a target uses it. Commands run with
 * `db.command()` on the URL's database (`test` when the URL names none); the client connects on
 * the first command, so an unreachable server errors the cases that need it, not the run.
 * `timeoutMs` bounds finding the server (default 5 s) and one command's answer (default 30 s).
 */
export function mongoDatabase(config: DatabaseConfig): DocumentDatabaseTarget {
  const description = describeMongoUrl(config.url);
  const where = hostsOf(config.url);
  const selectMs = config.timeoutMs ?? DEFAULT_SELECT_MS;
  const commandMs = config.timeoutMs ?? DEFAULT_COMMAND_MS;
  let session: Promise<{ client: MongoClient; db: Db }> | undefined;
  const serial = oneAtATime();

  const unreachable = (e: unknown): SpecgateError => {
    const message = e instanceof Error ? e.message : String(e);
    return new SpecgateError(
      'SG_TARGET_UNREACHABLE',
      `cannot use a session on the database at ${where}: ${message}; start the database, or fix \`database.url\` (host, port, user, password, database name) in the target profile`,
      { where },
      { cause: e },
    );
  };

  const open = (): Promise<{ client: MongoClient; db: Db }> => {
    if (!session) {
      session = (async () => {
        const driver = await import('mongodb');
        let client: MongoClient;
        try {
          client = new driver.MongoClient(config.url, { serverSelectionTimeoutMS: selectMs, connectTimeoutMS: selectMs });
        } catch (e) {
          throw new SpecgateError('SG_CONFIG', `database.url is not a MongoDB connection string the driver accepts: ${e instanceof Error ? e.message : String(e)}`, {}, { cause: e });
        }
        try {
          await client.connect();
        } catch (e) {
          void client.close().catch(() => undefined);
          throw unreachable(e);
        }
        return { client, db: client.db() };
      })();
      session.catch(() => {
        session = undefined;
      });
    }
    return session;
  };

  const classify = (e: unknown): SpecgateError => {
    if (e instanceof SpecgateError) return e;
    const err = (e ?? {}) as { name?: unknown; errorResponse?: unknown; codeName?: unknown; code?: unknown; errmsg?: unknown; message?: unknown };
    const name = typeof err.name === 'string' ? err.name : '';
    // an error the server sent is its answer to the command (MongoServerError and its kin)
    if (name.startsWith('MongoServer') && name !== 'MongoServerSelectionError') {
      const reply = typeof err.errorResponse === 'object' && err.errorResponse !== null ? (err.errorResponse as Record<string, unknown>) : err;
      return DatabaseAnswerError.refusedCommand({ codeName: reply['codeName'] ?? err.codeName, code: reply['code'] ?? err.code, errmsg: reply['errmsg'] ?? err.message });
    }
    if (/Network|ServerSelection|Topology|PoolClosed/.test(name)) return unreachable(e);
    const message = typeof err.message === 'string' ? err.message : String(e);
    return new SpecgateError('SG_TARGET_PROTOCOL', `the MongoDB driver could not run the command on ${where}: ${message}`, { where }, { cause: e });
  };

  const run = async (doc: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> => {
    signal?.throwIfAborted();
    const { db } = await open();
    const deadline = answerDeadline(where, commandMs, 'command', signal);
    const work = db.command(doc).then(
      (reply) => plainFromBson(reply) as Record<string, unknown>,
      (e: unknown) => {
        throw classify(e);
      },
    );
    try {
      return await Promise.race([work, deadline.cut]);
    } catch (e) {
      work.catch(() => undefined);
      throw e;
    } finally {
      deadline.clear();
    }
  };

  return {
    description,
    command(doc, signal) {
      return serial(() => run(doc, signal));
    },
    async close() {
      const current = session;
      session = undefined;
      if (current) await current.then((s) => s.client.close()).catch(() => undefined);
    },
  };
}
