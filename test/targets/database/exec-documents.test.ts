/**
 * The document port over a process speaking JSON lines (exec-protocol.md), against a small
 * in-memory store script: answers and state kept across commands, refusals, and each way a
 * process can break the protocol (garbage, a non-object, an unasked line, an exit, a hang, a flood).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SpecgateError } from '../../../src/errors.js';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';
import { execDocuments } from '../../../src/targets/database/exec-documents.js';
import type { DocumentDatabaseTarget, ExecDatabaseConfig } from '../../../src/targets/database/types.js';
import { fromRoot } from '../../../src/paths.js';
import { rejection } from '../../helpers/rejection.js';
import { alive, gone } from '../../helpers/process-alive.js';

const STORE = fromRoot('test/fixtures/command/doc-store.mjs');
const open: DocumentDatabaseTarget[] = [];

function store(extra: Partial<ExecDatabaseConfig> = {}, args: string[] = []): DocumentDatabaseTarget {
  const db = execDocuments({ argv: [process.execPath, STORE, ...args], timeoutMs: 5000, ...extra });
  open.push(db);
  return db;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});

describe('a database process', () => {
  it('answers commands in order from one process that keeps its state', async () => {
    const db = store();
    expect(await db.command({ ping: 1 })).toEqual({ ok: 1 });
    expect(await db.command({ insert: 'names', documents: [{ name: 'Ada' }, { name: 'Grace' }] })).toEqual({ ok: 1, n: 2 });
    const [a, b] = await Promise.all([db.command({ find: 'names', filter: { name: 'Ada' } }), db.command({ whoami: 1 })]);
    expect(a).toEqual({ ok: 1, cursor: { id: 0, ns: 'test.names', firstBatch: [{ name: 'Ada' }] } });
    const first = (await db.command({ whoami: 1 }))['pid'];
    expect(b?.['pid']).toBe(first);
  });

  it('reads integers beyond 2^53 exactly', async () => {
    expect((await store().command({ big: 1 }))['n']).toBe(9007199254740993n);
  });

  it('turns an ok: 0 reply into a refusal carrying code name, number and message, and keeps running', async () => {
    const db = store();
    await db.command({ create: 'names' });
    const pid = (await db.command({ whoami: 1 }))['pid'];
    const e = await rejection(db.command({ create: 'names' }));
    expect(e).toBeInstanceOf(DatabaseAnswerError);
    expect((e as DatabaseAnswerError).toObservation()).toEqual({ code: 'NamespaceExists', number: 48, message: 'Collection test.names already exists.' });
    expect(e.message).toContain('rejected the command (NamespaceExists 48)');
    expect((await db.command({ whoami: 1 }))['pid']).toBe(pid);
  });

  it('names the command and quotes the line when the process answers garbage, then starts afresh', async () => {
    const db = store();
    const pid = (await db.command({ whoami: 1 }))['pid'] as number;
    const e = await rejection(db.command({ garbage: 'names' }));
    expect(e.code).toBe('SG_TARGET_PROTOCOL');
    expect(e.message).toContain('not JSON: "this is not json"');
    expect(e.message).toContain('to the command garbage "names"');
    expect(e.message).toContain('doc-store ready');
    expect(await gone(pid)).toBe(true);
    const next = (await db.command({ whoami: 1 }))['pid'];
    expect(next).not.toBe(pid);
  });

  it('refuses a reply that is JSON but not an object', async () => {
    const e = await rejection(store().command({ notObject: 1 }));
    expect(e.code).toBe('SG_TARGET_PROTOCOL');
    expect(e.message).toContain('"[1,2,3]", which is not a JSON object');
  });

  it('tells the next command about a line no command asked for', async () => {
    const db = store();
    expect(await db.command({ twice: 1 })).toEqual({ ok: 1 });
    // the unasked line may arrive just after the answer: give it a moment
    await new Promise((r) => setTimeout(r, 200));
    const e = await rejection(db.command({ ping: 1 }));
    expect(e.code).toBe('SG_TARGET_PROTOCOL');
    expect(e.message).toContain('wrote a line no command asked for: "{\\"ok\\":1,\\"again\\":true}"');
    expect(await db.command({ ping: 1 })).toEqual({ ok: 1 });
  });

  it('reports a process that exits before answering, with its exit code and stderr', async () => {
    const db = store();
    const e = await rejection(db.command({ exitNow: 3 }));
    expect(e.code).toBe('SG_TARGET_PROTOCOL');
    expect(e.message).toContain('exited with code 3 before answering the command exitNow');
    expect(e.message).toContain('doc-store: told to exit');
    expect(await db.command({ ping: 1 })).toEqual({ ok: 1 });
  });

  it('ends a process that does not answer in time (SG_TARGET_TIMEOUT naming the command)', async () => {
    // the limit counts from the command's line, so the first one also waits for Node to start
    const db = store({ timeoutMs: 1500 });
    const pid = (await db.command({ whoami: 1 }))['pid'] as number;
    const started = Date.now();
    const e = await rejection(db.command({ hang: 'names' }));
    expect(Date.now() - started).toBeLessThan(4000);
    expect(e.code).toBe('SG_TARGET_TIMEOUT');
    expect(e.message).toContain('doc-store.mjs did not answer the command hang "names" within 1500 ms');
    expect(await gone(pid)).toBe(true);
  });

  it('gives up on the wait when the caller abandons it, with the caller\'s reason', async () => {
    const db = store();
    const ac = new AbortController();
    const pending = rejection(db.command({ hang: 1 }, ac.signal));
    setTimeout(() => ac.abort(new SpecgateError('SG_TARGET_TIMEOUT', 'step timeout')), 100);
    expect((await pending).message).toBe('step timeout');
  });

  it('ends a process that floods its stdout without ending the line', async () => {
    const db = store({ maxLineBytes: 64 * 1024 });
    const e = await rejection(db.command({ flood: 1024 * 1024 }));
    expect(e.code).toBe('SG_TARGET_TOO_LARGE');
    expect(e.message).toContain('more than 65536 bytes without ending the line while answering the command flood');
  });

  it('cannot start a program that does not exist (SG_TARGET_UNREACHABLE)', async () => {
    const db = execDocuments({ argv: ['/nonexistent/doc-store'] });
    open.push(db);
    const e = await rejection(db.command({ ping: 1 }));
    expect(e.code).toBe('SG_TARGET_UNREACHABLE');
    expect(e.message).toContain('/nonexistent/doc-store was not found');
    expect(e.message).toContain('database.exec');
  });

  it('ends the process when the target closes, killing one that ignores its closed stdin', async () => {
    const polite = store();
    const stubborn = store({}, ['--stubborn']);
    const p1 = (await polite.command({ whoami: 1 }))['pid'] as number;
    const p2 = (await stubborn.command({ whoami: 1 }))['pid'] as number;
    await Promise.all([polite.close(), stubborn.close()]);
    expect(alive(p1)).toBe(false);
    expect(await gone(p2, 500)).toBe(true);
  });
});
