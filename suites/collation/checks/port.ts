import type { CheckContext } from '../../../src/engine/checks/context.js';
import { documentsPort } from '../ports/documents.js';
import { postgresPort } from '../ports/postgres.js';
import type { CollationPort } from '../ports/types.js';

/**
 * The comparator port of the case's target: its document commands when it has them (the
 * reference store, a driver, an `exec:` adapter), else its SQL database's ICU collations.
 * Without either the case cannot run here: it is skipped, saying what the profile needs.
 */
export function portOf(ctx: CheckContext): CollationPort {
  if (ctx.documents) return documentsPort(ctx.documents);
  if (ctx.database) return postgresPort(ctx.database);
  return ctx.skip('the collation suite needs a database: give the profile `database: { url: "mongodb://..." }`, `{ url: "postgres://..." }` or `{ exec: "<adapter command>" }`');
}

/** Runs `body` with the case's port and closes the port afterwards (its scratch collection is dropped). */
export async function withPort<T>(ctx: CheckContext, body: (port: CollationPort) => Promise<T>): Promise<T> {
  const port = portOf(ctx);
  try {
    return await body(port);
  } finally {
    await port.close();
  }
}

/** A collation document shown on one line in a failure message. */
export function shown(collation: Record<string, unknown>): string {
  return JSON.stringify(collation);
}

/** A string shown in a failure message: quoted, with invisible and combining characters spelled as code points. */
export function quoted(s: string): string {
  const visible = /^[\p{L}\p{N}\p{P}\p{S} ]*$/u.test(s) && !/\p{M}/u.test(s);
  const text = s.length > 60 ? `${s.slice(0, 28)}…(${s.length} characters)…${s.slice(-28)}` : s;
  if (visible) return JSON.stringify(text);
  const points = Array.from(s.length > 60 ? text : s, (c) => (/[\p{L}\p{N}\p{P}\p{S}]/u.test(c) && !/\p{M}/u.test(c) ? c : `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`)).join('');
  return JSON.stringify(points);
}
