import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecgateError, SpecgateErrorList } from '../../src/errors.js';
import { loadProfile, readProfile } from '../../src/targets/profile.js';

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
    expect(err.message).toBe(`${file}:5:18: suites.oauth.http.timeoutMs must be integer, not a string; write a whole number there`);
  });

  it('points an unknown property at its own key', () => {
    const file = write(['suites:', '  oauth:', '    varz: {}', ''].join('\n'));
    expect(loadError(file).message).toBe(
      `${file}:3:5: suites.oauth has an unknown property "varz"; did you mean "vars"? the keys allowed here: description, side, select, vars, secrets, headers, fields, paths, database, http, exec, clock, agent`,
    );
  });

  it('reports a scripted agent without actions and a bad enum in one list', () => {
    const file = write(['suites:', '  oauth:', '    agent: { mode: scripted }', '  other:', '    agent: { mode: robot }', ''].join('\n'));
    const err = loadError(file);
    expect(err).toBeInstanceOf(SpecgateErrorList);
    expect(err.message).toContain(`${file}:3:12: suites.oauth.agent must have required property 'actions'`);
    expect(err.message).toContain(`${file}:5:20: suites.other.agent.mode must be one of: scripted, interactive`);
  });

  it('reports a missing suites section and a bad suite name', () => {
    expect(loadError(write('name: x\n')).message).toMatch(/:1:1: the profile must have required property 'suites'; add it$/);
    // one message for the name (not also the pattern inside the rule for names)
    expect(loadError(write('suites:\n  Bad_Name: {}\n')).message).toMatch(/^[^\n]*:2:3: suites has an invalid name "Bad_Name"; rename it to match \^\[a-z\]\[a-z0-9-\]\*\$$/);
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

  it('reads select: (the selection a run with the profile judges) with where it is, and refuses an empty one', () => {
    const p = loadProfile(write(['suites:', '  events:', '    vars: {}', '    select: { parts: [platform], requirements: ["!EVENTS-PLAT-MODIFIED"] }', ''].join('\n')), ENV);
    expect(p.suites.events?.select).toEqual({ parts: ['platform'], requirements: ['!EVENTS-PLAT-MODIFIED'] });
    expect(p.suites.events?.locations?.select).toMatchObject({ line: 4, column: 5 });
    expect(loadError(write(['suites:', '  events:', '    vars: {}', '    select: { parts: [] }', ''].join('\n'))).message).toMatch(/:4:\d+: suites\.events\.select\.parts /);
    expect(loadError(write(['suites:', '  events:', '    vars: {}', '    select: {}', ''].join('\n'))).message).toMatch(/:4:\d+: suites\.events\.select /);
  });
});

describe('readProfile', () => {
  it('reports schema errors, unset environment variables and section rules together, each with its section', () => {
    const file = write([
      'nmae: x',
      'suites:',
      '  oauth:',
      '    vars: { client_secret: "${env:NOPE_A}", auth_url: "https://x" }',
      '    http: { timeoutMs: fast }',
      '    secrets: [auth_url, missing]',
      '  other:',
      '    vars: { key: "${env:NOPE_B}" }',
      '    database: { url: "postgres://u:p@ss/word@h/db" }',
      '',
    ].join('\n'));
    const reading = readProfile(file, {});
    expect(reading.stopped).toBeUndefined();
    expect(reading.problems.map((p) => [p.suite, p.error.message.replace(`${file}:`, '')])).toEqual([
      [undefined, expect.stringMatching(/^1:1: the profile has an unknown property "nmae"; did you mean "name"\?/)],
      ['oauth', '5:24: suites.oauth.http.timeoutMs must be integer, not a string; write a whole number there'],
      ['oauth', '4:28: the environment variable NOPE_A is not set; export it before running specgate (the profile reads it with ${env:NOPE_A})'],
      ['other', '8:18: the environment variable NOPE_B is not set; export it before running specgate (the profile reads it with ${env:NOPE_B})'],
      ['oauth', '6:25: secrets names "missing", which is not a var of suite oauth; list var names here, not values'],
      ['other', expect.stringMatching(/^9:22: suites\.other\.database\.url has a password holding characters/)],
    ]);
    // the rest is read: the section without its broken http:, the unset reference left as written
    expect(reading.profile?.suites.oauth?.vars).toEqual({ client_secret: '${env:NOPE_A}', auth_url: 'https://x' });
    expect(reading.profile?.suites.oauth?.http).toBeUndefined();
    expect(reading.profile?.suites.oauth?.broken).toEqual(['http']);
    expect(Object.keys(reading.sections)).toEqual(['oauth', 'other']);
    expect(reading.sections.other).toMatchObject({ line: 7, column: 3 });
  });

  it('loadProfile throws the same problems as one list', () => {
    const file = write(['suites:', '  oauth:', '    vars: { a: "${env:NOPE_A}" }', '    http: { timeoutMs: fast }', ''].join('\n'));
    const err = loadError(file, {});
    expect(err).toBeInstanceOf(SpecgateErrorList);
    expect((err as SpecgateErrorList).errors.map((e) => e.message.replace(`${file}:`, '').split(':')[0])).toEqual(['4', '3']);
  });

  it('keeps every value of a section secret while its secrets: breaks the schema', () => {
    const file = write(['suites:', '  oauth:', '    vars: { token: "t0ps3cret", nested: { k: "inner-value" } }', '    secrets: token', ''].join('\n'));
    const reading = readProfile(file, {});
    expect(reading.problems.map((p) => p.error.message)).toEqual([`${file}:4:14: suites.oauth.secrets must be array, not a string; write a list there`]);
    expect(new Set(reading.profile?.suites.oauth?.secrets)).toEqual(new Set(['t0ps3cret', 'inner-value']));
  });

  it('judges no database URL that still reads an unset environment variable', () => {
    const file = write(['suites:', '  ledger:', '    database: { url: "postgres://app:${env:NOPE_PW}@127.0.0.1:5432/db" }', ''].join('\n'));
    const reading = readProfile(file, {});
    expect(reading.problems.map((p) => p.error.detail?.variable)).toEqual(['NOPE_PW']);
  });

  it('stops at what keeps the rest from being read, saying why', () => {
    const syntax = readProfile(write(['suites:', '  oauth: {}', '  oauth: {}', ''].join('\n')), {});
    expect(syntax.stopped).toBe('its YAML does not parse');
    expect(syntax.problems.map((p) => p.error.message)).toEqual([expect.stringMatching(/:3:3: Map keys must be unique$/)]);
    const noSuites = readProfile(write(['nmae: x', 'suites: [a]', ''].join('\n')), {});
    expect(noSuites.stopped).toBe('it has no suites: mapping to read the sections from');
    expect(noSuites.problems).toHaveLength(2);
    expect(readProfile(write(''), {}).stopped).toBe('it is empty');
    expect(readProfile(join(tmp, 'nope.yaml'), {}).stopped).toBe('the file cannot be read');
  });

  it('does not list a section whose name no suite can have (the schema says so already)', () => {
    const reading = readProfile(write(['suites:', '  Bad_Name: {}', '  merchant: 7', '  ok: {}', ''].join('\n')), {});
    expect(Object.keys(reading.sections)).toEqual(['merchant', 'ok']);
    expect(Object.keys(reading.profile?.suites ?? {})).toEqual(['ok']);
    expect(reading.problems.map((p) => p.suite)).toEqual(['Bad_Name', 'merchant']);
  });
});

