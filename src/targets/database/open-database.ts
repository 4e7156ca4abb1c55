import { SpecgateError } from '../../errors.js';
import { postgresDatabase } from './postgres.js';
import type { DatabaseConfig, DatabaseTarget } from './types.js';

/** URL schemes with an adapter; the scheme picks it. */
const ADAPTERS: Record<string, (config: DatabaseConfig) => DatabaseTarget> = {
  'postgres:': postgresDatabase,
  'postgresql:': postgresDatabase,
};

/**
 * The database a profile's `database:` section (or a reference target) names. Nothing is
 * contacted yet: the session opens on the first query.
 */
export function openDatabase(config: DatabaseConfig): DatabaseTarget {
  let scheme: string;
  try {
    scheme = new URL(config.url).protocol;
  } catch {
    throw new SpecgateError('SG_CONFIG', `database.url is not a URL; write it as postgres://user:password@host:port/database`);
  }
  const adapter = ADAPTERS[scheme];
  if (!adapter)
    throw new SpecgateError('SG_CONFIG', `database.url uses "${scheme}", which specgate has no adapter for; supported: ${Object.keys(ADAPTERS).join(', ')}`);
  return adapter(config);
}

/** The password a connection URL carries (decoded), so reports can hide it; undefined without one. */
export function passwordOf(url: string): string | undefined {
  try {
    const pw = new URL(url).password;
    return pw ? decodeURIComponent(pw) : undefined;
  } catch {
    return undefined;
  }
}
