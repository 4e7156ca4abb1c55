/**
 * Every problem of a target profile in one pass, through the command line: a profile `specgate
 * init` wrote, then half filled in, with unset environment variables, a value left unfilled, a
 * key breaking the schema and a section for a suite that does not exist, is reported whole by
 * one `validate` (grouped by section, exit 2) and by one `run` (exit 2, before anything starts);
 * YAML that does not parse stops the check there, saying more may follow. Needs `npm run build`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { assertBuilt, runCli, tempDir } from './cli.js';

const tmp = tempDir('specgate-profile-problems-');
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

/** Environment variables no test machine sets: the profile reads them, so each is a problem. */
const UNSET = ['SG_E2E_UNSET_CLIENT_SECRET', 'SG_E2E_UNSET_CONFIDENTIAL_SECRET'];

/** `file:line:column: ` of `point` on the first line of `file` holding `line` (by default the start of `line` itself). */
function at(file: string, line: string, point = line): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const n = lines.findIndex((l) => l.includes(line));
  if (n < 0) throw new Error(`${file} has no line holding ${line}`);
  return `${file}:${n + 1}:${(lines[n] ?? '').indexOf(point) + 1}: `;
}

/** The five problems, each as the line of the file it points at and what it says. */
function expected(file: string): string[] {
  return [
    `${at(file, '${env:SG_E2E_UNSET_CLIENT_SECRET}')}the environment variable SG_E2E_UNSET_CLIENT_SECRET is not set; export it before running specgate`,
    `${at(file, '${env:SG_E2E_UNSET_CONFIDENTIAL_SECRET}')}the environment variable SG_E2E_UNSET_CONFIDENTIAL_SECRET is not set; export it before running specgate`,
    `${at(file, 'server_url: "<fill in>"')}vars.server_url of suite ctx-auth is still "<fill in>": put the target's value there`,
    `${at(file, 'timeoutMs: fast', 'fast')}suites.ctx-auth.http.timeoutMs must be integer, not a string; write a whole number there`,
    `${at(file, 'ctx-auht:')}suites.ctx-auht names no suite specgate knows (did you mean "ctx-auth"?)`,
  ];
}

describe('a profile with problems of every kind', () => {
  const file = join(tmp.dir, 'ctx-auth.yaml');

  beforeAll(async () => {
    const init = await runCli(['init', 'ctx-auth', '--out', file], { cwd: tmp.dir });
    expect(init.code, init.stderr).toBe(0);
    for (const name of UNSET) expect(process.env[name], `${name} must be unset for this test`).toBeUndefined();
    const doc = parseDocument(readFileSync(file, 'utf8'));
    // server_url stays "<fill in>" as init wrote it
    expect(doc.getIn(['suites', 'ctx-auth', 'vars', 'server_url'])).toBe('<fill in>');
    doc.setIn(['suites', 'ctx-auth', 'vars', 'client_secret'], '${env:SG_E2E_UNSET_CLIENT_SECRET}');
    doc.setIn(['suites', 'ctx-auth', 'vars', 'confidential_client_secret'], '${env:SG_E2E_UNSET_CONFIDENTIAL_SECRET}');
    doc.setIn(['suites', 'ctx-auth', 'http'], doc.createNode({ timeoutMs: 'fast' }));
    doc.setIn(['suites', 'ctx-auht'], doc.createNode({ vars: { server_url: 'https://ctx.example.test/mcp' } }));
    writeFileSync(file, doc.toString());
  });

  it('validate lists every one of them in one run, grouped by section, and exits 2', async () => {
    const res = await runCli(['validate', file], { cwd: tmp.dir });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stdout).toBe('');
    for (const problem of expected(file)) expect(res.stderr).toContain(problem);
    expect(res.stderr).toContain(`specgate: error [SG_CONFIG]: ${file} has 5 problems; fix them all, then validate again (each says what to do):\n`);
    // each section's problems under its heading, in the file's order
    const own = res.stderr.indexOf('\n  suites.ctx-auth:\n');
    const typo = res.stderr.indexOf('\n  suites.ctx-auht:\n');
    expect(own).toBeGreaterThan(0);
    expect(typo).toBeGreaterThan(own);
    for (const problem of expected(file).slice(0, 4)) expect(res.stderr.indexOf(problem)).toBeGreaterThan(own);
    for (const problem of expected(file).slice(0, 4)) expect(res.stderr.indexOf(problem)).toBeLessThan(typo);
    expect(res.stderr.indexOf(expected(file)[4] ?? '')).toBeGreaterThan(typo);
  });

  it('run reports the same problems at once, before anything starts, and exits 2', async () => {
    const report = join(tmp.dir, 'results.json');
    const res = await runCli(['run', '--target', file, '--report', `json=${report}`], { cwd: tmp.dir });
    expect(res.code, res.stderr).toBe(2);
    for (const problem of expected(file)) expect(res.stderr).toContain(problem);
    expect(res.stdout).not.toMatch(/Summary|exit code/);
    expect(existsSync(report)).toBe(false);
  });
});

describe('a profile whose YAML does not parse', () => {
  const file = join(tmp.dir, 'broken.yaml');

  beforeAll(() => {
    writeFileSync(file, ['suites:', '  ctx-auth:', '    vars:', '      server_url: "<fill in>"', '      client_secret: "${env:SG_E2E_UNSET_CLIENT_SECRET}"', '  ctx-auth: {}', ''].join('\n'));
  });

  it('validate stops at the syntax error, saying to fix it first since other problems may follow', async () => {
    const res = await runCli(['validate', file], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`specgate: error [SG_CONFIG]: ${file} is checked no further because its YAML does not parse: fix this first; other problems may follow:\n`);
    expect(res.stderr).toContain(`${file}:6:3: Map keys must be unique`);
    // what lies past it is not reported yet
    expect(res.stderr).not.toContain('SG_E2E_UNSET_CLIENT_SECRET');
  });

  it('run says the same', async () => {
    const res = await runCli(['run', '--target', file], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${file}:6:3: Map keys must be unique`);
    expect(res.stderr).toContain(`${file}: the profile is checked no further because its YAML does not parse: fix this first; other problems may follow`);
  });
});
