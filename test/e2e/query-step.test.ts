/**
 * `query:` steps end to end: the CLI runs a small suite against PostgreSQL databases named by a
 * target profile's `database:` section — a conformant one, a planted fault (its collation is
 * case-sensitive), and an address where nothing listens.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { postgresDatabase } from '../../src/targets/database/postgres.js';
import { declarePeer } from '../helpers/peer.js';
import { editedFixtureModule, expectUnreachable, runSuiteModule, type SuiteModuleRun } from '../helpers/suite-module-run.js';
import { freePort, postgresPeer, startCluster, type Cluster } from '../targets/database/pg-cluster.js';
import { assertBuilt, caseOf, statusMap, tempDir, writeProfile, type JsonReport } from './cli.js';

const MODULE = fromRoot('test/fixtures/query/suite.mjs');
const PASSWORD = 'ledger-pw-7f3a9c';

function runLedger(dir: string, profile: string, module = MODULE): Promise<SuiteModuleRun> {
  return runSuiteModule(dir, module, 'ledger', ['--target', profile]);
}

/** A profile pointing the ledger suite at one database. */
function ledgerProfile(dir: string, name: string, url: string): string {
  return writeProfile(dir, name, { name, suites: { ledger: { database: { url, timeoutMs: 10_000 } } } });
}

describe('query step: failures that need no database', () => {
  const tmp = tempDir();
  beforeAll(() => assertBuilt());
  afterAll(() => tmp.remove());

  it('errors every case that needs an unreachable database (exit 3), saying to start it or fix database.url', async () => {
    const port = await freePort();
    const run = await runLedger(tmp.dir, ledgerProfile(tmp.dir, 'nowhere', `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`));
    expect(run.code).toBe(3);
    const report = run.report as JsonReport;
    expectUnreachable(report, ['names-compare-case-blind', 'name-read-back', 'missing-table-refused'], `127.0.0.1:${port}`, 'database.url');
    expect(Object.values(statusMap(report))).toEqual(['untested', 'untested', 'untested']);
    expect(readFileSync(run.json, 'utf8') + run.stdout + run.stderr).not.toContain(PASSWORD);
  });

  it('rejects a misspelt query key at load time with file:line:column (exit 2)', async () => {
    const module = editedFixtureModule(tmp.dir, 'query', 'ledger.yaml', 'params: [ada]', 'parms: [ada]');
    const run = await runLedger(tmp.dir, ledgerProfile(tmp.dir, 'any', 'postgres://postgres@127.0.0.1:1/postgres'), module);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ledger\.yaml:\d+:\d+: .*unknown key "parms"/);
  });
});

declarePeer(postgresPeer);

describe.skipIf(postgresPeer.skip)('query step against PostgreSQL', () => {
  const tmp = tempDir();
  let cluster: Cluster;
  const dbUrl = (name: string): string => cluster.url.replace('postgres@', `postgres:${PASSWORD}@`).replace(/\/postgres$/, `/${name}`);
  beforeAll(async () => {
    assertBuilt();
    cluster = await startCluster();
    const admin = postgresDatabase({ url: cluster.url });
    await admin.query('create database good', []);
    await admin.query('create database faulty', []);
    await admin.close();
    // the conformant ledger compares names case-blind; the planted fault's collation is case-sensitive
    for (const [name, collation] of [
      ['good', "provider = icu, locale = 'und-u-ks-level2', deterministic = false"],
      ['faulty', "provider = icu, locale = 'und', deterministic = true"],
    ] as const) {
      const db = postgresDatabase({ url: dbUrl(name) });
      await db.query(`create collation names (${collation})`, []);
      await db.close();
    }
  });
  afterAll(async () => {
    await cluster?.stop();
    tmp.remove();
  });

  it('passes a conformant database on every requirement, and never prints its password', async () => {
    const run = await runLedger(tmp.dir, ledgerProfile(tmp.dir, 'good', dbUrl('good')));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(statusMap(run.report as JsonReport)).toEqual({ 'LEDGER-CASE-BLIND': 'passed', 'LEDGER-READ-BACK': 'passed', 'LEDGER-NO-TABLE': 'passed' });
    expect(readFileSync(run.json, 'utf8') + run.stdout).not.toContain(PASSWORD);
  });

  it('fails only the requirement the planted fault breaks, with the rows it answered', async () => {
    const run = await runLedger(tmp.dir, ledgerProfile(tmp.dir, 'faulty', dbUrl('faulty')));
    expect(run.code).toBe(1);
    const report = run.report as JsonReport;
    expect(statusMap(report)).toEqual({ 'LEDGER-CASE-BLIND': 'failed', 'LEDGER-READ-BACK': 'passed', 'LEDGER-NO-TABLE': 'passed' });
    const failure = caseOf(report, 'names-compare-case-blind').failures[0];
    expect(failure?.message).toMatch(/^rows\[0\]\.same/);
    expect(failure?.actual).toBe(false);
    expect(readFileSync(run.json, 'utf8')).toContain('select $1::text = $2::text collate names as same');
    expect(readFileSync(run.json, 'utf8') + run.stdout).not.toContain(PASSWORD);
  });
});
