import { SpecgateError } from '../../errors.js';
import { execDocuments } from './exec-documents.js';
import { mongoDatabase } from './mongodb.js';
import { postgresDatabase } from './postgres.js';
import type { DatabaseConfig, DatabaseSection, DatabaseTarget, DocumentDatabaseTarget } from './types.js';

/** URL schemes with a SQL adapter (`query:` steps); the scheme picks it. */
const ADAPTERS: Record<string, (config: DatabaseConfig) => DatabaseTarget> = {
  'postgres:': postgresDatabase,
  'postgresql:': postgresDatabase,
};

/** URL schemes with a document adapter (`command:` steps). */
const DOCUMENT_ADAPTERS: Record<string, (config: DatabaseConfig) => DocumentDatabaseTarget> = {
  'mongodb:': mongoDatabase,
  'mongodb+srv:': mongoDatabase,
};

/** What a target's `database:` gives its cases: a SQL port or a document port, never both. */
export type DatabasePort = { kind: 'sql'; database: DatabaseTarget } | { kind: 'documents'; documents: DocumentDatabaseTarget };

function schemeOf(url: string): string {
  // a scheme is all a URL needs here: a MongoDB URL with several hosts is no WHATWG URL
  const m = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(url);
  if (!m?.[1]) throw new SpecgateError('SG_CONFIG', `database.url is not a URL; write it as postgres://user:password@host:port/database or mongodb://user:password@host:port/database`);
  return m[1].toLowerCase();
}

function supported(): string {
  return [...Object.keys(ADAPTERS), ...Object.keys(DOCUMENT_ADAPTERS)].join(', ');
}

/**
 * The SQL database a profile's `database:` section (or a reference target) names. Nothing is
 * contacted yet: the session opens on the first query.
 */
export function openDatabase(config: DatabaseConfig): DatabaseTarget {
  const scheme = schemeOf(config.url);
  const adapter = ADAPTERS[scheme];
  if (adapter) return adapter(config);
  if (DOCUMENT_ADAPTERS[scheme])
    throw new SpecgateError('SG_CONFIG', `database.url uses "${scheme}", a document database: its cases use \`command:\` steps, not \`query:\``);
  throw new SpecgateError('SG_CONFIG', `database.url uses "${scheme}", which specgate has no adapter for; supported: ${supported()}`);
}

/**
 * The port a profile's `database:` section opens: by URL scheme, the SQL port (PostgreSQL) or
 * the document port (MongoDB); with `exec`, the document port of a process speaking JSON lines.
 * Nothing is contacted or started yet: that happens on the first query or command.
 */
export function openDatabasePort(section: DatabaseSection): DatabasePort {
  if ('exec' in section) return { kind: 'documents', documents: execDocuments(section.exec) };
  const scheme = schemeOf(section.url);
  const sql = ADAPTERS[scheme];
  if (sql) return { kind: 'sql', database: sql(section) };
  const documents = DOCUMENT_ADAPTERS[scheme];
  if (documents) return { kind: 'documents', documents: documents(section) };
  throw new SpecgateError('SG_CONFIG', `database.url uses "${scheme}", which specgate has no adapter for; supported: ${supported()}`);
}

/** The password a connection URL carries (decoded), so reports can hide it; undefined without one. */
export function passwordOf(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^:@/?]*:([^@/?]*)@/i.exec(url);
  if (!m?.[1]) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}
