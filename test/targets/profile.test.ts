import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecgateError, SpecgateErrorList } from '../../src/errors.js';
import { loadProfile } from '../../src/targets/profile.js';

const fixtures = fileURLToPath(new URL('../fixtures/targets/profiles/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'specgate-profile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ENV = { ACME_CLIENT_ID: 'Iv1.8a61f9b3a7aba766', ACME_SECRET: 'sup3r-s3cret-value', ACME_BASIC: 'dXNlcjpwdw==' };

let n = 0;
function write(text: string): string {
  const file = join(tmp, `profile-${++n}.yaml`);
  writeFileSync(file, text);
  return file;
}

function loadError(file: string, env: NodeJS.ProcessEnv = ENV): SpecgateError {
  try {
    loadProfile(file, env);
  } catch (e) {
    expect(e).toBeInstanceOf(SpecgateError);
    return e as SpecgateError;
  }
  throw new Error('expected loadProfile to fail');
}

describe('loadProfile', () => {
  it('loads a full profile, resolving only ${env:...} and collecting secrets', () => {
    const p = loadProfile(join(fixtures, 'acme.yaml'), ENV);
    expect(p.name).toBe('acme-staging');
    const oauth = p.suites.oauth;
    expect(oauth?.vars).toMatchObject({
      auth_url: 'https://auth.acme.test',
      api_url: '${auth_url}/api',
      client_id: ENV.ACME_CLIENT_ID,
      client_secret: ENV.ACME_SECRET,
      basic: `Basic ${ENV.ACME_BASIC}`,
    });
    expect(new Set(oauth?.secrets)).toEqual(new Set([ENV.ACME_CLIENT_ID, ENV.ACME_SECRET, ENV.ACME_BASIC, 'k1', '-----BEGIN KEY-----xyz']));
    expect(oauth?.headerNames).toEqual({ 'ctx-protocol-version': 'MCP-Protocol-Version' });
    expect(oauth?.http).toEqual({ timeoutMs: 5000, maxBodyBytes: 1048576, userAgent: 'specgate-ci' });
    expect(oauth?.clock?.advance).toEqual({ method: 'POST', url: '${base}/__clock', json: { ms: '${ms}' } });
    expect(oauth?.agent).toEqual({
      mode: 'scripted',
      actions: { approve: [{ request: { method: 'POST', url: '${auth_url}/approve', form: { user_code: '${user_code}' } }, expect: { status: 200 } }] },
    });
    expect(oauth?.location).toMatchObject({ line: 4, column: 3 });
    expect(new Set(p.secrets)).toEqual(new Set(oauth?.secrets));
  });

  it('resolves a relative executable against the profile folder and stringifies env values', () => {
    const plugin = loadProfile(join(fixtures, 'acme.yaml'), ENV).suites.plugin;
    expect(plugin?.exec).toEqual({
      command: join(fixtures, 'bin/protoc-gen-acme'),
      args: ['--verbose'],
      env: { ACME_MODE: 'strict', LEVEL: '3' },
      timeoutMs: 10000,
      maxStdoutBytes: 67108864,
    });
    expect(plugin?.agent).toEqual({ mode: 'interactive' });
    expect(plugin?.secrets).toEqual([]);
  });

  it('names a missing environment variable with file:line:column', () => {
    const env: Record<string, string> = { ...ENV };
    delete env.ACME_SECRET;
    const err = loadError(join(fixtures, 'acme.yaml'), env);
    expect(err.code).toBe('SG_CONFIG');
    expect(err.message).toBe(
      `${join(fixtures, 'acme.yaml')}:10:22: the environment variable ACME_SECRET is not set; export it before running specgate (the profile reads it with \${env:ACME_SECRET})`,
    );
  });

  it('reports every missing variable at once', () => {
    const err = loadError(join(fixtures, 'acme.yaml'), {});
    expect(err).toBeInstanceOf(SpecgateErrorList);
    expect((err as SpecgateErrorList).errors.map((e) => e.detail?.variable)).toEqual(['ACME_CLIENT_ID', 'ACME_SECRET', 'ACME_BASIC']);
  });

  it('reports a schema violation at the offending value as file:line:column: rule', () => {
    const file = write(['suites:', '  oauth:', '    vars: { auth_url: "https://x" }', '    http:', '      timeoutMs: fast', ''].join('\n'));
    const err = loadError(file);
    expect(err.code).toBe('SG_CONFIG');
    expect(err.message).toBe(`${file}:5:18: suites.oauth.http.timeoutMs must be integer`);
  });

  it('points an unknown property at its own key', () => {
    const file = write(['suites:', '  oauth:', '    varz: {}', ''].join('\n'));
    expect(loadError(file).message).toBe(`${file}:3:5: suites.oauth has an unknown property "varz"`);
  });

  it('reports a scripted agent without actions and a bad enum in one list', () => {
    const file = write(['suites:', '  oauth:', '    agent: { mode: scripted }', '  other:', '    agent: { mode: robot }', ''].join('\n'));
    const err = loadError(file);
    expect(err).toBeInstanceOf(SpecgateErrorList);
    expect(err.message).toContain(`${file}:3:12: suites.oauth.agent must have required property 'actions'`);
    expect(err.message).toContain(`${file}:5:20: suites.other.agent.mode must be one of: scripted, interactive`);
  });

  it('reports a missing suites section and a bad suite name', () => {
    expect(loadError(write('name: x\n')).message).toMatch(/:1:1: the profile must have required property 'suites'$/);
    expect(loadError(write('suites:\n  Bad_Name: {}\n')).message).toMatch(/:2:3: suites has an invalid name "Bad_Name"$/);
  });

  it('reports YAML syntax errors (duplicate keys) with their position', () => {
    const file = write(['suites:', '  oauth: {}', '  oauth: {}', ''].join('\n'));
    const err = loadError(file);
    expect(err.code).toBe('SG_CONFIG');
    expect(err.message).toBe(`${file}:3:3: Map keys must be unique`);
  });

  it('refuses secrets: naming a var the suite does not have', () => {
    const file = write(['suites:', '  oauth:', '    vars: { a: "1234" }', '    secrets: [a, b]', ''].join('\n'));
    expect(loadError(file).message).toBe(`${file}:4:18: secrets names "b", which is not a var of suite oauth; list var names here, not values`);
  });

  it('refuses a malformed env reference and an empty or missing file', () => {
    expect(loadError(write('suites:\n  a:\n    vars: { x: "${env:1BAD}" }\n')).message).toMatch(/:3:16: "\$\{env:1BAD\}" is not a valid environment reference/);
    expect(loadError(write('')).message).toMatch(/:1:1: the target profile is empty/);
    expect(loadError(join(tmp, 'nope.yaml')).message).toMatch(/nope\.yaml does not exist; check the --target path/);
  });

  it('keeps env values embedded in longer strings secret, and leaves other expressions alone', () => {
    const file = write(['name: "${env:ACME_CLIENT_ID}"', 'suites:', '  a:', '    vars: { auth: "token ${env:ACME_SECRET} for ${user}" }', ''].join('\n'));
    const p = loadProfile(file, ENV);
    expect(p.suites.a?.vars.auth).toBe(`token ${ENV.ACME_SECRET} for \${user}`);
    expect(p.suites.a?.secrets).toEqual([ENV.ACME_SECRET]);
    expect(new Set(p.secrets)).toEqual(new Set([ENV.ACME_SECRET, ENV.ACME_CLIENT_ID]));
  });

  it("reads paths: (the target's words for the spec's neutral path segments) and refuses a segment with a slash", () => {
    const p = loadProfile(write(['suites:', '  merchant:', '    vars: {}', '    paths: { accessibleprofileaccounts: accessiblebrandaccounts }', ''].join('\n')), ENV);
    expect(p.suites.merchant?.pathNames).toEqual({ accessibleprofileaccounts: 'accessiblebrandaccounts' });
    const e = loadError(write(['suites:', '  merchant:', '    vars: {}', '    paths: { accessibleprofileaccounts: a/b }', ''].join('\n')));
    expect(e.message).toMatch(/:4:\d+: .*paths/);
  });
});
