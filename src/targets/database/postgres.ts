import type pgTypes from 'pg';
import { answerDeadline } from './answer-deadline.js';
import { DatabaseAnswerError, classifyDatabaseError } from './database-errors.js';
import type { DatabaseConfig, DatabaseTarget, QueryResult } from './types.js';
import { oneAtATime } from './one-at-a-time.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const INT8_OID = 20;

type Pg = typeof pgTypes;
/** The driver, loaded with the first session: most runs judge no database, and it costs every CLI start. */
let driver: Pg | undefined;
async function loadDriver(): Promise<Pg> {
  driver ??= (await import('pg')).default;
  return driver;
}

/**
 * Values as cases match them: int8 as a number while it is exact (a bigint beyond 2^53, as JSON
 * bodies do), timestamps as ISO text (a Date would print differently in every report), bytea as
 * bytes. Everything else as the driver parses it (numeric stays text: it has no exact JS number).
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (oid === INT8_OID && format !== 'binary') {
      return (v: string) => {
        const n = Number(v);
        return Number.isSafeInteger(n) ? n : BigInt(v);
      };
    }
    // rows are parsed only in a session, so the driver is loaded by then
    const parse = (driver ? driver.types.getTypeParser(oid, format ?? 'text') : (v: string) => v) as (value: string) => unknown;
    return (v: string) => normalise(parse(v));
  },
};

function normalise(v: unknown): unknown {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  if (Buffer.isBuffer(v)) return new Uint8Array(v);
  if (Array.isArray(v)) return v.map(normalise);
  return v;
}

/** `postgres://user@host:port/db`: the URL without its password, for reports. */
export function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return 'postgres (unparsable url)';
  }
}

/**
 * A PostgreSQL database as a {@link DatabaseTarget}: one session, opened on the first query
 * (so an unreachable database errors the cases that need it, not the whole run) and again after
 * a query was cut short (a timed-out or abandoned statement leaves its session in an unknown state).
 */
export function postgresDatabase(config: DatabaseConfig): DatabaseTarget {
  const description = describePostgresUrl(config.url);
  const where = (() => {
    try {
      const u = new URL(config.url);
      return `${u.hostname || 'localhost'}:${u.port || '5432'}`;
    } catch {
      return description;
    }
  })();
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let session: Promise<pgTypes.Client> | undefined;
  // one statement at a time: the session is shared, and pg would queue anyway
  const serial = oneAtATime();

  const open = (): Promise<pgTypes.Client> => {
    if (!session) {
      session = loadDriver().then(async (pg) => {
        const c = new pg.Client({ connectionString: config.url, connectionTimeoutMillis: timeoutMs, types });
        // an idle session the server drops must not crash the process: the next query reopens
        c.on('error', () => {
          session = undefined;
        });
        await c.connect();
        return c;
      });
      session = session.then(
        (c) => c,
        (e: unknown) => {
          session = undefined;
          throw classifyDatabaseError(e, where, true);
        },
      );
    }
    return session;
  };

  const drop = (client: pgTypes.Client): void => {
    session = undefined;
    void client.end().catch(() => undefined);
  };

  const run = async (sql: string, params: readonly unknown[], signal?: AbortSignal): Promise<QueryResult> => {
    signal?.throwIfAborted();
    const client = await open();
    const deadline = answerDeadline(where, timeoutMs, 'query', signal);
    const work = client.query({ text: sql, values: [...params] }).then(
      (res) => res,
      (e: unknown) => {
        throw classifyDatabaseError(e, where, false);
      },
    );
    try {
      const res = await Promise.race([work, deadline.cut]);
      return { rows: res.rows as Record<string, unknown>[], rowCount: res.rowCount ?? res.rows.length, fields: res.fields.map((f) => f.name) };
    } catch (e) {
      // a refused statement leaves the session usable; anything else may not
      if (!(e instanceof DatabaseAnswerError)) {
        work.catch(() => undefined);
        drop(client);
      }
      throw e;
    } finally {
      deadline.clear();
    }
  };

  return {
    description,
    query(sql, params, signal) {
      return serial(() => run(sql, params, signal));
    },
    async close() {
      const current = session;
      session = undefined;
      if (current) await current.then((c) => c.end()).catch(() => undefined);
    },
  };
}
