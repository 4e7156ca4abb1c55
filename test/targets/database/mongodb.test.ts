/**
 * The document port over the MongoDB driver: adapter choice by URL scheme, passwords kept out of
 * descriptions, BSON values as plain JSON, an unreachable server reported quickly, and (only when
 * SPECGATE_TEST_MONGODB_URL names a server) commands against a real one.
 */
import { Binary, Decimal128, Long, ObjectId, Timestamp, UUID } from 'bson';
import { describe, expect, it } from 'vitest';
import { plainFromBson } from '../../../src/targets/database/bson-plain.js';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';
import { describeMongoUrl, mongoDatabase } from '../../../src/targets/database/mongodb.js';
import { openDatabase, openDatabasePort, passwordOf } from '../../../src/targets/database/open-database.js';
import { freePort } from '../../../src/targets/free-port.js';
import { rejection } from '../../helpers/rejection.js';

describe('choosing a database port', () => {
  it('gives the document port for mongodb:// and mongodb+srv://, the SQL port for postgres://, without contacting anything', () => {
    const m = openDatabasePort({ url: 'mongodb://app:s3cret@127.0.0.1:1,127.0.0.1:2/names?replicaSet=rs0' });
    expect(m.kind).toBe('documents');
    expect(m.kind === 'documents' && m.documents.description).toBe('mongodb://app@127.0.0.1:1,127.0.0.1:2/names?replicaSet=rs0');
    expect(openDatabasePort({ url: 'mongodb+srv://cluster.example/names' }).kind).toBe('documents');
    expect(openDatabasePort({ url: 'postgres://u@127.0.0.1:1/x' }).kind).toBe('sql');
    expect(openDatabasePort({ exec: { argv: ['/bin/true'] } }).kind).toBe('documents');
  });

  it('refuses a document URL where a SQL database is needed, and an unknown scheme naming what is supported', () => {
    expect(() => openDatabase({ url: 'mongodb://127.0.0.1:1/x' })).toThrow(/document database: its cases use `command:` steps/);
    expect(() => openDatabasePort({ url: 'redis://127.0.0.1:1' })).toThrow(/"redis:".*supported: postgres:, postgresql:, mongodb:, mongodb\+srv:/);
  });

  it('tells which password to hide in a MongoDB URL, and hides it in the description', () => {
    expect(passwordOf('mongodb://app:p%40ss@h1:27017,h2:27017/db')).toBe('p@ss');
    expect(passwordOf('mongodb://h1:27017/db')).toBeUndefined();
    expect(describeMongoUrl('mongodb+srv://app:p%40ss@cluster.example/db')).toBe('mongodb+srv://app@cluster.example/db');
  });
});

describe('BSON values in replies', () => {
  it('become plain JSON values', () => {
    const id = new ObjectId('65a1b2c3d4e5f60718293a4b');
    const at = new Date('2024-01-02T03:04:05.000Z');
    const reply = {
      ok: 1,
      cursor: {
        firstBatch: [
          { _id: id, n: Long.fromNumber(42), big: Long.fromString('9007199254740993'), price: Decimal128.fromString('1.10'), at, uid: new UUID('0f8fad5b-d9cb-469f-a165-70867728950e'), raw: new Binary(Buffer.from([1, 2])), ts: new Timestamp({ t: 7, i: 3 }) },
        ],
      },
    };
    expect(plainFromBson(reply)).toEqual({
      ok: 1,
      cursor: {
        firstBatch: [
          { _id: '65a1b2c3d4e5f60718293a4b', n: 42, big: 9007199254740993n, price: '1.10', at: '2024-01-02T03:04:05.000Z', uid: '0f8fad5b-d9cb-469f-a165-70867728950e', raw: new Uint8Array([1, 2]), ts: { t: 7, i: 3 } },
        ],
      },
    });
  });
});

describe('an unreachable MongoDB server', () => {
  it('is SG_TARGET_UNREACHABLE within the selection timeout, naming the address and database.url, never the password', async () => {
    const port = await freePort();
    const db = mongoDatabase({ url: `mongodb://app:hidden-pw-91@127.0.0.1:${port}/names`, timeoutMs: 1000 });
    const started = Date.now();
    const e = await rejection(db.command({ ping: 1 }));
    expect(Date.now() - started).toBeLessThan(8000);
    expect(e.code).toBe('SG_TARGET_UNREACHABLE');
    expect(e.message).toContain(`127.0.0.1:${port}`);
    expect(e.message).toContain('database.url');
    expect(e.message).not.toContain('hidden-pw-91');
    await db.close();
  });
});

const LIVE_URL = process.env['SPECGATE_TEST_MONGODB_URL'];

describe('the MongoDB adapter against a live server', () => {
  it.skipIf(!LIVE_URL)('runs commands, keeps replies plain and turns refusals into code name, number and message (set SPECGATE_TEST_MONGODB_URL to run)', async () => {
    const db = mongoDatabase({ url: LIVE_URL ?? '', timeoutMs: 10_000 });
    const coll = `sg_adapter_${Date.now().toString(36)}`;
    try {
      expect(await db.command({ ping: 1 })).toMatchObject({ ok: 1 });
      await db.command({ create: coll });
      expect(await db.command({ insert: coll, documents: [{ name: 'Ada' }, { name: 'ada' }] })).toMatchObject({ ok: 1, n: 2 });
      const found = await db.command({ find: coll, filter: { name: 'ADA' }, collation: { locale: 'en', strength: 2 }, sort: { name: 1 } });
      const batch = (found['cursor'] as { firstBatch: Record<string, unknown>[] }).firstBatch;
      expect(batch.map((d) => d['name'])).toEqual(['Ada', 'ada']);
      expect(batch[0]?.['_id']).toMatch(/^[0-9a-f]{24}$/);
      const e = await rejection(db.command({ create: coll }));
      expect(e).toBeInstanceOf(DatabaseAnswerError);
      expect((e as DatabaseAnswerError).toObservation()).toMatchObject({ code: 'NamespaceExists', number: 48 });
    } finally {
      await db.command({ drop: coll }).catch(() => undefined);
      await db.close();
    }
  });
});
