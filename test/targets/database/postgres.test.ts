import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpecgateError } from '../../../src/errors.js';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';
import { openDatabase, passwordOf } from '../../../src/targets/database/open-database.js';
import { describePostgresUrl, postgresDatabase } from '../../../src/targets/database/postgres.js';
import type { DatabaseTarget } from '../../../src/targets/database/types.js';
import { declarePeer } from '../../helpers/peer.js';
import { freePort, postgresPeer, startCluster, type Cluster } from './pg-cluster.js';
import { rejection } from '../../helpers/rejection.js';

describe('openDatabase', () => {
  it('picks the adapter by URL scheme and refuses others with what is supported', () => {
    expect(openDatabase({ url: 'postgresql://u@127.0.0.1:1/x' }).description).toBe('postgresql://u@127.0.0.1:1/x');
    const e = (() => {
      try {
        openDatabase({ url: 'mysql://u@h/x' });
      } catch (err) {
        return err as SpecgateError;
      }
      return undefined;
    })();
    expect(e?.code).toBe('SG_CONFIG');
    expect(e?.message).toMatch(/"mysql:".*supported: postgres:, postgresql:/);
  });

  it('never shows the password, and tells which one to hide', () => {
    expect(describePostgresUrl('postgres://app:s%40cret@db:5432/main')).toBe('postgres://app@db:5432/main');
    expect(passwordOf('postgres://app:s%40cret@db:5432/main')).toBe('s@cret');
    expect(passwordOf('postgres://app@db/main')).toBeUndefined();
  });
});

describe('an unreachable database', () => {
  it('is SG_TARGET_UNREACHABLE, saying to start it or fix database.url', async () => {
    const port = await freePort();
    const db = postgresDatabase({ url: `postgres://postgres:pw@127.0.0.1:${port}/postgres`, timeoutMs: 5000 });
    const e = await rejection(db.query('select 1', []));
    expect(e.code).toBe('SG_TARGET_UNREACHABLE');
    expect(e.message).toContain(`127.0.0.1:${port}`);
    expect(e.message).toContain('database.url');
    expect(e.message).not.toContain('pw');
    await db.close();
  });
});

declarePeer(postgresPeer);

describe.skipIf(postgresPeer.skip)('PostgreSQL adapter against a real cluster', () => {
  let cluster: Cluster;
  let db: DatabaseTarget;
  beforeAll(async () => {
    cluster = await startCluster();
    db = postgresDatabase({ url: cluster.url, timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
  });

  it('answers rows, fields in order and a row count; parameters are passed, not spliced', async () => {
    const res = await db.query("select $1::text as name, 2::int4 as n, 9007199254740993::int8 as big, 42::int8 as small, true as ok, '2024-01-02T03:04:05Z'::timestamptz as at", ["o'hara"]);
    expect(res.fields).toEqual(['name', 'n', 'big', 'small', 'ok', 'at']);
    expect(res.rowCount).toBe(1);
    expect(res.rows).toEqual([{ name: "o'hara", n: 2, big: 9007199254740993n, small: 42, ok: true, at: '2024-01-02T03:04:05.000Z' }]);
  });

  it('keeps one session: a temporary table made by one query is seen by the next', async () => {
    await db.query('create temporary table t (k text primary key)', []);
    const ins = await db.query('insert into t values ($1), ($2)', ['a', 'b']);
    expect(ins.rowCount).toBe(2);
    expect(ins.rows).toEqual([]);
    expect((await db.query('select k from t order by k', [])).rows).toEqual([{ k: 'a' }, { k: 'b' }]);
  });

  it('turns a refused statement into the database answer (SQLSTATE kept) and stays usable', async () => {
    const e = await rejection(db.query('select * from no_such_table', []));
    expect(e).toBeInstanceOf(DatabaseAnswerError);
    expect((e as DatabaseAnswerError).toObservation()).toEqual({ code: '42P01', message: 'relation "no_such_table" does not exist' });
    expect((await db.query('select 1 as one', [])).rows).toEqual([{ one: 1 }]);
  });

  it('runs the ICU collations a collation suite needs (non-deterministic, strength 2)', async () => {
    await db.query("create collation if not exists ci_test (provider = icu, locale = 'und-u-ks-level2', deterministic = false)", []);
    const res = await db.query("select 'Résumé' = 'résumé' collate ci_test as same_case_blind, 'resume' = 'résumé' collate ci_test as accent_blind", []);
    expect(res.rows).toEqual([{ same_case_blind: true, accent_blind: false }]);
  });

  it('stops waiting at its timeout (SG_TARGET_TIMEOUT) and opens a fresh session after', async () => {
    const slow = postgresDatabase({ url: cluster.url, timeoutMs: 300 });
    const started = performance.now();
    const e = await rejection(slow.query('select pg_sleep(5)', []));
    expect(e.code).toBe('SG_TARGET_TIMEOUT');
    expect(performance.now() - started).toBeLessThan(3000);
    expect((await slow.query('select 2 as two', [])).rows).toEqual([{ two: 2 }]);
    await slow.close();
  });

  it('gives up a statement when the case is aborted', async () => {
    const ac = new AbortController();
    const pending = db.query('select pg_sleep(5)', [], ac.signal);
    setTimeout(() => ac.abort(new SpecgateError('SG_CASE_TIMEOUT', 'case over')), 100);
    expect((await rejection(pending)).code).toBe('SG_CASE_TIMEOUT');
    expect((await db.query('select 3 as three', [])).rows).toEqual([{ three: 3 }]);
  });

  it('refuses a login to a database that does not exist as unreachable, naming the fix', async () => {
    const other = postgresDatabase({ url: cluster.url.replace(/\/postgres$/, '/nope'), timeoutMs: 5000 });
    const e = await rejection(other.query('select 1', []));
    expect(e.code).toBe('SG_TARGET_UNREACHABLE');
    expect(e.message).toMatch(/3D000.*"nope" does not exist.*database\.url/);
    await other.close();
  });
});
