/**
 * `command:` steps end to end: the CLI runs a small suite against document databases — the
 * suite's embedded store, a process speaking JSON lines named by a target profile's
 * `database: { exec: ... }` (conformant, and two planted faults), and a MongoDB address where
 * nothing listens.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { freePort } from '../../src/targets/free-port.js';
import { editedFixtureModule, expectUnreachable, runSuiteModule, type SuiteModuleRun } from '../helpers/suite-module-run.js';
import { assertBuilt, caseOf, statusMap, tempDir, writeProfile, type JsonReport } from './cli.js';

const MODULE = fromRoot('test/fixtures/command/suite.mjs');
const STORE = fromRoot('test/fixtures/command/doc-store.mjs');
const ALL_PASSED = { 'NAMES-CASE-BLIND': 'passed', 'NAMES-READ-BACK': 'passed', 'NAMES-NO-DUPLICATE': 'passed' };

function runNames(dir: string, profile: string | undefined, module = MODULE): Promise<SuiteModuleRun> {
  return runSuiteModule(dir, module, 'names', profile ? ['--target', profile] : []);
}

describe('command step', () => {
  const tmp = tempDir();
  beforeAll(() => {
    assertBuilt();
    // the profile names the store by a path relative to its own folder
    copyFileSync(STORE, join(tmp.dir, 'doc-store.mjs'));
  });
  afterAll(() => tmp.remove());

  const storeProfile = (name: string, env: Record<string, string> = {}): string =>
    writeProfile(tmp.dir, name, { name, suites: { names: { database: { exec: './doc-store.mjs', env, timeoutMs: 10_000 } } } });

  it('passes the embedded store, handed to the engine as a document port', async () => {
    const run = await runNames(tmp.dir, undefined);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(statusMap(run.report as JsonReport)).toEqual(ALL_PASSED);
  });

  it('passes a conformant database process named by database.exec', async () => {
    const run = await runNames(tmp.dir, storeProfile('good'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(statusMap(run.report as JsonReport)).toEqual(ALL_PASSED);
  });

  it('fails only the requirement a case-sensitive store breaks, recording the commands it sent', async () => {
    const run = await runNames(tmp.dir, storeProfile('case-sensitive', { DOC_STORE_FAULT: 'case-sensitive' }));
    expect(run.code).toBe(1);
    const report = run.report as JsonReport;
    expect(statusMap(report)).toEqual({ ...ALL_PASSED, 'NAMES-CASE-BLIND': 'failed' });
    const failure = caseOf(report, 'names-compare-case-blind').failures[0];
    expect(failure?.message).toMatch(/^reply\.cursor\.firstBatch/);
    // the typed check saw the same store through ctx.documents, and its command is in the report
    expect(caseOf(report, 'check-counts-case-blind').failures.map((f) => f.message)).toEqual(['a case-blind find of grace matched 0 documents']);
    const text = readFileSync(run.json, 'utf8');
    expect(text).toMatch(/doc-store\.mjs: find checked -> ok/);
    expect(text).toContain('database process ');
    expect(text).toMatch(/doc-store\.mjs: find blind -> ok/);
    expect(text).toContain('"kind": "command"');
  });

  it('fails a step whose command is refused unexpectedly, with the database\'s code and message', async () => {
    const run = await runNames(tmp.dir, storeProfile('refuses', { DOC_STORE_FAULT: 'refuse-find' }));
    expect(run.code).toBe(1);
    const report = run.report as JsonReport;
    expect(statusMap(report)).toEqual({ ...ALL_PASSED, 'NAMES-CASE-BLIND': 'failed', 'NAMES-READ-BACK': 'failed' });
    const failure = caseOf(report, 'names-compare-case-blind').failures.find((f) => f.message.includes('refused'));
    expect(failure?.message).toContain('the database refused the command (Unauthorized 13): not authorized on test to execute command { find: "blind" }');
    expect(readFileSync(run.json, 'utf8')).toMatch(/find blind -> error Unauthorized/);
  });

  it('errors every case when the MongoDB server cannot be reached (exit 3), never printing the password', async () => {
    const port = await freePort();
    const profile = writeProfile(tmp.dir, 'nowhere', { name: 'nowhere', suites: { names: { database: { url: `mongodb://app:pw-7d1e@127.0.0.1:${port}/names`, timeoutMs: 1000 } } } });
    const run = await runNames(tmp.dir, profile);
    expect(run.code).toBe(3);
    expectUnreachable(run.report as JsonReport, ['names-compare-case-blind', 'name-read-back', 'duplicate-collection-refused'], `127.0.0.1:${port}`);
    expect(readFileSync(run.json, 'utf8') + run.stdout + run.stderr).not.toContain('pw-7d1e');
  });

  it('errors a case that runs a command against a target with only a SQL database, saying what to configure', async () => {
    const profile = writeProfile(tmp.dir, 'sql', { name: 'sql', suites: { names: { database: { url: 'postgres://u@127.0.0.1:1/x' } } } });
    const run = await runNames(tmp.dir, profile);
    expect(run.code).toBe(3);
    const c = caseOf(run.report as JsonReport, 'duplicate-collection-refused');
    expect(c.outcome).toBe('errored');
    expect(c.errorCode).toBe('SG_CONFIG');
    expect(c.reason).toContain('use `query:` steps for it');
  });

  it('rejects a command that is not a document at load time with file:line:column (exit 2)', async () => {
    const module = editedFixtureModule(tmp.dir, 'command', 'names.yaml', '- command: { create: dupes }\n      expect:\n        reply', '- command: create\n      expect:\n        reply');
    const run = await runNames(tmp.dir, undefined, module);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/names\.yaml:\d+:\d+: .*command: a command is a document whose first key names the operation, not "create"/);
  });
});
