/**
 * What `specgate validate` finds in a target profile, in one pass: the profile's own problems
 * (schema, `${env:...}`, section rules), sections for unknown suites, a side the suite lacks, and
 * what the cases need of the target; a key set aside for breaking the schema is not judged again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkProfile } from '../../cli/profile-check.js';
import { knownSuites } from '../../cli/suites.js';
import { validateCommand } from '../../cli/validate-command.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { tempDir } from '../e2e/cli.js';

const tmp = tempDir('specgate-profile-check-');
afterAll(() => tmp.remove());
const modules = await knownSuites([], ['ctx-auth', 'oauth']);

let n = 0;
function write(lines: string[]): string {
  const file = join(tmp.dir, `profile-${++n}.yaml`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Each problem as `suite: start of the message` (the file's path left out). */
function found(file: string, env: NodeJS.ProcessEnv = {}): string[] {
  return checkProfile(modules, file, env).problems.map((p) => `${p.suite ?? '(top)'}: ${p.error.message.replace(`${file}:`, '')}`);
}

describe('checkProfile', () => {
  it('collects every kind of problem at once, each with its section', () => {
    const file = write([
      'nmae: x',
      'suites:',
      '  ctx-auth:',
      '    side: servr',
      '    vars:',
      '      server_url: "<fill in>"',
      '      client_secret: "${env:NOPE_SECRET}"',
      '      client_idd: x',
      '    http: { timeoutMs: fast }',
      '  ctx-auht: {}',
    ]);
    const check = checkProfile(modules, file, {});
    expect(check.stopped).toBeUndefined();
    expect(check.sections).toEqual(['ctx-auth', 'ctx-auht']);
    expect(found(file)).toEqual([
      expect.stringMatching(/^\(top\): 1:1: the profile has an unknown property "nmae"; did you mean "name"\?/),
      'ctx-auth: 9:24: suites.ctx-auth.http.timeoutMs must be integer, not a string; write a whole number there',
      expect.stringMatching(/^ctx-auth: 7:22: the environment variable NOPE_SECRET is not set; export it before running specgate/),
      expect.stringMatching(/^ctx-auht: 10:3: suites\.ctx-auht names no suite specgate knows \(did you mean "ctx-auth"\?\); known suites: .*; correct the name, or load the suite with --suite-module <file>$/),
      expect.stringMatching(/^ctx-auth: 3:3: the target profile's suites\.ctx-auth\.side: suite ctx-auth has no side "servr" \(did you mean "server"\?\)/),
      'ctx-auth: 6:7: vars.server_url of suite ctx-auth is still "<fill in>": put the target\'s value there, or delete the line when the variable is optional',
      expect.stringMatching(/^ctx-auth: 8:7: vars\.client_idd is not a variable of suite ctx-auth; did you mean vars\.client_id\?/),
    ]);
  });

  it("checks only the cases of the section's side", () => {
    expect(found(write(['suites:', '  ctx-auth:', '    side: client', '    vars: {}']))).toEqual([]);
    expect(found(write(['suites:', '  ctx-auth:', '    side: server', '    vars: {}']))).toEqual([expect.stringMatching(/^ctx-auth: 4:5: suites\.ctx-auth\.vars lacks a required variable:\n {2}server_url — /)]);
  });

  it('judges nothing of a vars: or agent: that breaks the schema beyond saying so', () => {
    expect(found(write(['suites:', '  ctx-auth:', '    vars: [server_url]']))).toEqual(['ctx-auth: 3:11: suites.ctx-auth.vars must be object, not a list; write a mapping there']);
    const oauth = write([
      'suites:',
      '  oauth:',
      '    vars: { auth_url: "https://a.test", api_url: "https://api.test", client_id: c, client_secret: s, callback_url: "https://cb.test", device_client_id: d, disabled_device_client_id: e, user_login: u }',
      '    agent: { mode: robot }',
    ]);
    expect(found(oauth)).toEqual(['oauth: 4:20: suites.oauth.agent.mode must be one of: scripted, interactive, browser']);
    // the same section without agent: at all is told what it lacks
    const bare = write(['suites:', '  oauth:', '    vars: { auth_url: "https://a.test", api_url: "https://api.test", client_id: c, client_secret: s, callback_url: "https://cb.test", device_client_id: d, disabled_device_client_id: e, user_login: u }']);
    expect(found(bare)).toEqual([expect.stringMatching(/^oauth: 2:3: suites\.oauth has no agent:/)]);
  });

  it('stops where the file stops being readable, saying why', () => {
    const file = write(['suites:', '  ctx-auth:', '    vars: { client_secret: "${env:NOPE_SECRET}" }', '  ctx-auth: {}']);
    const check = checkProfile(modules, file, {});
    expect(check.stopped).toBe('its YAML does not parse');
    expect(found(file)).toEqual(['(top): 4:3: Map keys must be unique']);
  });

  it('finds nothing in a ready profile', () => {
    expect(found(write(['suites:', '  ctx-auth:', '    vars: { server_url: "https://ctx.example.test/mcp", client_secret: "${env:SET_SECRET}" }']), { SET_SECRET: 's' })).toEqual([]);
  });
});

describe('a fields: name the cases send both as a JSON key and as a query key', () => {
  const dir = join(tmp.dir, 'suite-x');
  mkdirSync(join(dir, 'cases'), { recursive: true });
  writeFileSync(join(dir, 'requirements.yaml'), '- { id: X-ONE, level: MUST, source: "x.txt#A", text: one }\n');
  writeFileSync(
    join(dir, 'cases', 'a.yaml'),
    ['- id: both', '  requirements: [X-ONE]', '  steps:', '    - request: { method: POST, url: "${base_url}/items", json: { page: 1 } }', '    - request: { url: "${base_url}/items", query: { page: 2, size: 5 } }', '      expect: { status: 200 }', ''].join('\n'),
  );
  const module: SuiteModule = { name: 'x', dir, reference: { start: async () => ({ description: 'nothing', vars: {}, stop: async () => undefined }) } };

  it('is a warning of validate, not a problem; a name sent one way only is none', async () => {
    const file = write(['suites:', '  x:', '    vars: { base_url: "http://127.0.0.1:1" }', '    fields: { page: p, size: per_page }']);
    const check = checkProfile([module], file, {});
    expect(check.problems).toEqual([]);
    expect(check.warnings).toEqual([expect.stringMatching(/^suite x: fields\.page renames "page" to "p" in JSON bodies and in form fields and query parameters alike, and the cases send it as both/)]);
    let text = '';
    const out = { write: (t: string) => (text += t) };
    expect(await validateCommand([module], [file], out)).toBe(0);
    expect(text.split('\n')).toEqual([expect.stringMatching(new RegExp(`^warn ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: suite x: fields\\.page `)), `ok  ${file}`, '']);
    expect(checkProfile([module], write(['suites:', '  x:', '    vars: { base_url: "http://127.0.0.1:1" }', '    fields: { size: per_page }']), {}).warnings).toBeUndefined();
  });
});
