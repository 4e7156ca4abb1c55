/**
 * How a target provides its document database: a profile section's `database:` with a
 * `mongodb://` URL or an `exec` process (command line taken from the profile's folder, vars
 * resolved, closed with the target), or the embedded reference's own port.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { prepareTarget } from '../../../src/engine/target-setup.js';
import { fromRoot } from '../../../src/paths.js';
import type { DocumentDatabaseTarget } from '../../../src/targets/database/types.js';
import { loadProfile } from '../../../src/targets/profile.js';
import type { HttpClient } from '../../../src/targets/types.js';
import { tempDir } from '../../e2e/cli.js';
import { alive } from '../../helpers/process-alive.js';

const noHttp = (): HttpClient => ({ send: () => Promise.reject(new Error('no request expected')), close: async () => {} });
const tmp = tempDir('specgate-doc-target-');
const module: SuiteModule = { name: 'names', dir: tmp.dir };
beforeAll(() => copyFileSync(fromRoot('test/fixtures/command/doc-store.mjs'), join(tmp.dir, 'doc-store.mjs')));
afterAll(() => tmp.remove());

function profileFile(name: string, yaml: string): string {
  const file = join(tmp.dir, name);
  writeFileSync(file, yaml);
  return file;
}

describe('a profile database process (database.exec)', () => {
  it('is a command line taken from the profile folder, run there, with env as text', () => {
    const file = profileFile('exec.yaml', 'suites:\n  names:\n    database: { exec: "./doc-store.mjs --stubborn", env: { LEVEL: 2 }, timeoutMs: 500, maxLineBytes: 4096 }\n');
    expect(loadProfile(file, {}).suites['names']?.database).toEqual({
      exec: { argv: [process.execPath, join(tmp.dir, 'doc-store.mjs'), '--stubborn'], cwd: tmp.dir, env: { LEVEL: '2' }, timeoutMs: 500, maxLineBytes: 4096 },
    });
  });

  it('may be an argument list, and a shell line runs as written in the folder it names', () => {
    const list = profileFile('list.yaml', 'suites:\n  names:\n    database: { exec: [./doc-store.mjs, "--db", "a b"] }\n');
    expect(loadProfile(list, {}).suites['names']?.database).toEqual({ exec: { argv: [process.execPath, join(tmp.dir, 'doc-store.mjs'), '--db', 'a b'], cwd: tmp.dir } });
    const shell = profileFile('shell.yaml', 'suites:\n  names:\n    database: { exec: "node doc-store.mjs 2>/dev/null", cwd: sub }\n');
    expect(loadProfile(shell, {}).suites['names']?.database).toEqual({ exec: { argv: ['/bin/sh', '-c', 'node doc-store.mjs 2>/dev/null "$@"', 'sh'], cwd: join(tmp.dir, 'sub') } });
  });

  it('refuses both url and exec, neither, and process settings beside a url, at the database key', () => {
    const both = profileFile('both.yaml', 'suites:\n  names:\n    database: { url: "mongodb://127.0.0.1:1/x", exec: ./doc-store.mjs }\n');
    expect(() => loadProfile(both, {})).toThrow(/both\.yaml:3:\d+: database has both url and exec/);
    const neither = profileFile('neither.yaml', 'suites:\n  names:\n    database: { timeoutMs: 100 }\n');
    expect(() => loadProfile(neither, {})).toThrow(/neither\.yaml:3:\d+: database needs url .* or exec/);
    const cwd = profileFile('cwd.yaml', 'suites:\n  names:\n    database: { url: "mongodb://127.0.0.1:1/x", cwd: /tmp }\n');
    expect(() => loadProfile(cwd, {})).toThrow(/cwd\.yaml:3:\d+: database\.cwd applies only to a database process/);
    const empty = profileFile('empty.yaml', 'suites:\n  names:\n    database: { exec: [] }\n');
    expect(() => loadProfile(empty, {})).toThrow(/empty\.yaml:3:\d+: .*database\.exec/);
  });

  it('refuses the url `specgate init` leaves to fill in, at the url, saying what to put there', () => {
    const unfilled = profileFile('unfilled.yaml', 'suites:\n  names:\n    database:\n      url: "<fill in>"\n');
    expect(() => loadProfile(unfilled, {})).toThrow(/unfilled\.yaml:4:\d+: database\.url is still "<fill in>": put your database's URL there/);
  });

  it('becomes the target\'s document port: vars resolved in the command line, started on the first command, ended with the target', async () => {
    const file = profileFile('run.yaml', 'suites:\n  names:\n    vars: { flag: "--stubborn" }\n    database: { exec: ["./doc-store.mjs", "${flag}"] }\n');
    const profile = loadProfile(file, {});
    const { target } = await prepareTarget(module, { section: profile.suites['names'], label: 'store', secrets: [] }, { includeSlow: false, http: noHttp });
    expect(target.database).toBeUndefined();
    expect(target.documents?.description).toBe(`database process ${join(tmp.dir, 'doc-store.mjs')}`);
    const pid = (await target.documents?.command({ whoami: 1 }))?.['pid'] as number;
    expect(alive(pid)).toBe(true);
    await target.stop();
    // --stubborn: it ignored its closed stdin and had to be killed
    expect(alive(pid)).toBe(false);
  });
});

describe('a profile MongoDB URL', () => {
  it('gives the document port, never the SQL one; the password is a secret and out of the description', async () => {
    const file = profileFile('mongo.yaml', 'suites:\n  names:\n    vars: { host: 127.0.0.1 }\n    database: { url: "mongodb://app:${env:NAMES_PW}@${host}:1/names", timeoutMs: 300 }\n');
    const profile = loadProfile(file, { NAMES_PW: 'mongo-pw-55' });
    const { target } = await prepareTarget(module, { section: profile.suites['names'], label: 'mongo', secrets: profile.secrets }, { includeSlow: false, http: noHttp });
    expect(target.database).toBeUndefined();
    expect(target.documents?.description).toBe('mongodb://app@127.0.0.1:1/names');
    expect(target.secrets).toContain('mongo-pw-55');
    await target.stop();
  });
});

describe('an embedded reference', () => {
  it('hands the engine its own document port', async () => {
    const calls: Record<string, unknown>[] = [];
    const documents: DocumentDatabaseTarget = { description: 'in-memory', command: async (doc) => (calls.push(doc), { ok: 1 }), close: async () => {} };
    const withDocs: SuiteModule = { ...module, reference: { start: async () => ({ description: 'ref', vars: {}, documents, stop: async () => {} }) } };
    const { target } = await prepareTarget(withDocs, { section: undefined, label: 'reference', secrets: [] }, { includeSlow: false, http: noHttp });
    expect(target.documents).toBe(documents);
    expect(target.database).toBeUndefined();
    await target.documents?.command({ ping: 1 });
    expect(calls).toEqual([{ ping: 1 }]);
  });
});
