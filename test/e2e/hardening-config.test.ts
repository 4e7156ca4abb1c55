/**
 * Configuration errors are found when the profile loads, before anything runs (exit 2, the
 * profile file, line and key named): a database URL whose password a driver would cut at an
 * unencoded "/", and a profile `specgate init` wrote, whose optional variables a run must not
 * then demand. Needs `npm run build`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { assertBuilt, runCli, tempDir } from './cli.js';

const tmp = tempDir('specgate-config-');
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

describe('a database URL is checked when the profile loads', () => {
  it('a mongodb:// password holding "/" is exit 2 before any case runs, saying how to encode it, and never shows the password', async () => {
    const profile = join(tmp.dir, 'collation.yaml');
    writeFileSync(profile, ['suites:', '  collation:', '    database:', '      url: "mongodb://app:${env:SG_TEST_DB_PASSWORD}@127.0.0.1:27017/scratch"', ''].join('\n'));
    const res = await runCli(['run', '--suite', 'collation', '--target', profile, '--report', `json=${join(tmp.dir, 'results.json')}`], { cwd: tmp.dir, env: { SG_TEST_DB_PASSWORD: 'Zm9v/YmFy+cXV4=' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`specgate: error [SG_CONFIG]: ${profile}:4:12: suites.collation.database.url has a password holding characters a URL must carry percent-encoded: write "/" as %2F`);
    expect(res.stderr).not.toContain('Zm9v');
    // nothing ran: no case errored, no summary, no report
    expect(res.stdout).not.toMatch(/exit code|errored/);
    expect(() => readFileSync(join(tmp.dir, 'results.json'))).toThrow();
  });

  it('validate says the same of the profile', async () => {
    const profile = join(tmp.dir, 'postgres.yaml');
    writeFileSync(profile, ['suites:', '  collation:', '    database:', '      url: "postgres://app:p@ss/word@127.0.0.1:5432/scratch"', ''].join('\n'));
    const res = await runCli(['validate', profile], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`${profile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:12: suites\\.collation\\.database\\.url has a password .* write "@" as %40, "/" as %2F`));
  });
});

describe('init and run agree on what a profile must hold', () => {
  it('the ctx-auth profile init writes, with its REQUIRED values filled in, passes the checks run makes', async () => {
    const file = join(tmp.dir, 'ctx-auth.yaml');
    const init = await runCli(['init', 'ctx-auth', '--out', file], { cwd: tmp.dir });
    expect(init.code).toBe(0);
    const doc = parseDocument(readFileSync(file, 'utf8'));
    // the one value init marks REQUIRED; everything it calls optional stays commented out
    expect(doc.getIn(['suites', 'ctx-auth', 'vars', 'server_url'])).toBe('<fill in>');
    expect(Object.keys((doc.getIn(['suites', 'ctx-auth', 'vars']) as { toJSON(): object }).toJSON())).toEqual(['server_url']);
    doc.setIn(['suites', 'ctx-auth', 'vars', 'server_url'], 'https://ctx.example.test/mcp');
    writeFileSync(file, doc.toString());
    const res = await runCli(['validate', file], { cwd: tmp.dir });
    expect(res.stderr).toBe('');
    expect([res.code, res.stdout]).toEqual([0, `ok  ${file}\n`]);
  });
});
