/**
 * A throwaway PostgreSQL cluster for tests: initdb in a temp folder, a free loopback port, trust
 * authentication, stopped and deleted by `stop()`. PostgreSQL refuses to run as root, so as root
 * the server programs run as the `postgres` system user (the Debian package creates it).
 */
import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { requirePeer, type PeerRequirement } from '../../helpers/peer.js';
import { systemProgram } from '../../helpers/programs.js';
import { freePort } from '../../../src/targets/free-port.js';

const run = promisify(execFile);

/** The folder holding initdb and pg_ctl: on PATH, or Debian's versioned folder (not on PATH there). */
function serverBin(): string | undefined {
  const onPath = systemProgram('pg_ctl');
  if (onPath && existsSync(join(dirname(onPath), 'initdb'))) return dirname(onPath);
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return undefined;
  const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(debian, v, 'bin', 'initdb'))) return join(debian, v, 'bin');
  return undefined;
}

const BIN = serverBin();
const asRoot = process.getuid?.() === 0;
const postgresUser = asRoot ? userIds('postgres') : undefined;

/** Whether the cluster can be started here; tests skip visibly (or fail under CI) when not. */
export const postgresPeer: PeerRequirement = requirePeer(
  'PostgreSQL server (initdb, pg_ctl)',
  BIN !== undefined && (!asRoot || postgresUser !== undefined),
  'apt-get install postgresql',
);

export interface Cluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts a fresh cluster; about a second. */
export async function startCluster(): Promise<Cluster> {
  if (!BIN) throw new Error(postgresPeer.reason);
  const dir = mkdtempSync(join(tmpdir(), 'specgate-pg-'));
  if (postgresUser) chownSync(dir, postgresUser.uid, postgresUser.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const as = (program: string, args: string[]): Promise<unknown> =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(BIN, program), ...args]) : run(join(BIN, program), args);
  const stop = async (): Promise<void> => {
    await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    await as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop };
}

/** A loopback port nothing listens on right now, outside the range other servers' port 0 comes from. */
export { freePort };

function userIds(name: string): { uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
