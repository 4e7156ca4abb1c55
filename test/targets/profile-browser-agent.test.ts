import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecgateError } from '../../src/errors.js';
import { loadProfile } from '../../src/targets/profile.js';

const tmp = mkdtempSync(join(tmpdir(), 'specgate-profile-browser-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function write(agent: string): string {
  const file = join(tmp, `profile-${++n}.yaml`);
  writeFileSync(file, `suites:\n  oauth:\n    vars: { auth_url: "http://127.0.0.1:1" }\n    agent:\n${agent}`);
  return file;
}

function loadError(file: string): SpecgateError {
  try {
    loadProfile(file, {});
  } catch (e) {
    expect(e).toBeInstanceOf(SpecgateError);
    return e as SpecgateError;
  }
  throw new Error('expected loadProfile to fail');
}

describe('a browser user agent in the target profile', () => {
  it('loads its actions as page steps, with chromium taken from the profile folder', () => {
    const file = write(
      [
        '      mode: browser',
        '      chromium: bin/chromium',
        '      stepTimeoutMs: 5000',
        '      actions:',
        '        approve:',
        '          - goto: { url: "${auth_url}/authorize", query: "${query}" }',
        '          - fill: { "#login": "${user_login}" }',
        '            when: { selector: "form#sign-in" }',
        '          - click: "form#approve button"',
        '          - waitFor: { url: "[?&]code=" }',
        '          - capture: { code: "url:query.code", title: "text:h1", outcome: "attr:main@data-outcome", shown: "exists:form" }',
        '          - set: { decided: true }',
        '',
      ].join('\n'),
    );
    const agent = loadProfile(file, {}).suites['oauth']?.agent;
    expect(agent).toEqual({
      mode: 'browser',
      chromium: join(tmp, 'bin/chromium'),
      stepTimeoutMs: 5000,
      actions: {
        approve: [
          { goto: { url: '${auth_url}/authorize', query: '${query}' } },
          { fill: { '#login': '${user_login}' }, when: { selector: 'form#sign-in' } },
          { click: 'form#approve button' },
          { waitFor: { url: '[?&]code=' } },
          { capture: { code: 'url:query.code', title: 'text:h1', outcome: 'attr:main@data-outcome', shown: 'exists:form' } },
          { set: { decided: true } },
        ],
      },
    });
  });

  it('needs actions', () => {
    const err = loadError(write('      mode: browser\n'));
    expect(err.code).toBe('SG_CONFIG');
    expect(err.message).toMatch(/profile-\d+\.yaml:5:7: .*actions/);
  });

  it('says which kinds a step mixes', () => {
    const err = loadError(write('      mode: browser\n      actions:\n        approve:\n          - { goto: "http://127.0.0.1:1/" }\n          - { goto: "http://127.0.0.1:1/", click: "#b" }\n'));
    expect(err.code).toBe('SG_CONFIG');
    expect(err.message).toMatch(/profile-\d+\.yaml:9:13: page step 2 of the browser action "approve" does goto and click; a page step does one thing: split it into 2 steps$/);
  });

  it('refuses a step of two kinds, an unknown step and a capture source that names nothing', () => {
    for (const step of ['{ goto: "http://127.0.0.1:1/", click: "#b" }', '{ press: "Enter" }', '{ capture: { code: "cookie:sid" } }', '{ click: "#b", when: {} }']) {
      const err = loadError(write(`      mode: browser\n      actions:\n        approve:\n          - ${step}\n`));
      expect(err.code, step).toBe('SG_CONFIG');
      expect(err.message, step).toMatch(/profile-\d+\.yaml:\d+:\d+: /);
    }
  });

  it('keeps the browser settings out of the other modes', () => {
    const err = loadError(write('      mode: scripted\n      chromium: /usr/bin/chromium\n      actions: { approve: [ { request: { url: "x" } } ] }\n'));
    expect(err.code).toBe('SG_CONFIG');
    expect(err.message).toContain('chromium');
  });
});
