import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJUnitReporter, renderJUnit } from '../../src/reporting/junit.js';
import { BIG_ID, eventsFor, makeRunResult, REPLAY } from '../fixtures/reporting/run-result.js';
import { declarePeer } from '../helpers/peer.js';
import { validate, xmllint, xpath } from './xmllint.js';

function writeTemp(xml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'specgate-junit-')), 'junit.xml');
  writeFileSync(file, xml);
  return file;
}

describe('renderJUnit (string checks)', () => {
  const xml = renderJUnit(makeRunResult());

  it('contains no character that is illegal in XML 1.0 and no raw markup from payloads', () => {
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(xml).not.toContain(']]>');
    expect(xml).toContain('emoji😀');
  });

  it('writes SUREFIRE_TIME-shaped times and no skipped attribute on the root (the XSD has none)', () => {
    for (const m of xml.matchAll(/ time="([^"]*)"/g)) expect(m[1]).toMatch(/^\d+\.\d{3}$/);
    expect(xml).toMatch(/<testsuites name="specgate" tests="\d+" failures="\d+" errors="\d+" time="7\.402">/);
  });

  it('caps a huge failure body and says so', () => {
    const run = makeRunResult();
    const c = run.suites[0]?.cases[1];
    if (!c?.failures[0]) throw new Error('fixture changed');
    c.failures[0].actual = 'x'.repeat(300_000);
    c.failures[0].property = { seed: 9, runs: 1, replay: 'specgate replay-me' };
    const out = renderJUnit(run);
    const body = /<testcase name="device-poll-too-fast[^>]*>\s*<failure[^>]*>([^<]*)<\/failure>/.exec(out)?.[1] ?? '';
    expect(body.length).toBeLessThan(70 * 1024);
    expect(body).toContain('truncated');
    // The replay command is written before the bulky parts, so it survives the cap.
    expect(body).toContain('replay: specgate replay-me');
  });
});

declarePeer(xmllint);

describe.skipIf(xmllint.skip)('renderJUnit (read back with xmllint)', () => {
  const file = writeTemp(renderJUnit(makeRunResult()));
  const q = (expr: string) => xpath(file, expr);
  const failureOf = (suite: string, name: string, attr: string) =>
    q(`string(//testsuite[@name="${suite}"]/testcase[starts-with(@name,"${name}")]/*[1]/@${attr})`);

  it('validates against junit-10.xsd', () => {
    expect(validate(file)).toEqual({ ok: true, errors: [] });
  });

  it('has a case suite and a requirements suite per spec suite, with consistent totals', () => {
    expect(q('count(/testsuites/testsuite)')).toBe('4');
    expect(q('string(/testsuites/testsuite[2]/@name)')).toBe('oauth.requirements');
    expect(q('count(//testcase)')).toBe(q('string(/testsuites/@tests)'));
    expect(q('string(/testsuites/@failures)')).toBe(q('count(//testcase/failure)'));
    expect(q('string(/testsuites/@errors)')).toBe(q('count(//testcase/error)'));
    expect(q('string(//testsuite[@name="oauth"]/@skipped)')).toBe(q('count(//testsuite[@name="oauth"]/testcase/skipped)'));
  });

  it('names cases with their requirement IDs and classnames them by suite', () => {
    expect(q('count(//testcase[@name="redirect-uri-rules [OAUTH-REDIRECT-HOST, OAUTH-REDIRECT-PATH]"][@classname="specgate.oauth"])')).toBe('1');
    expect(q('count(//testcase[@name="OAUTH-TOKEN-EXPIRY (SHOULD)"][@classname="specgate.oauth.requirements"])')).toBe('1');
  });

  it('maps every case outcome', () => {
    expect(q('count(//testcase[starts-with(@name,"device-code-issued")]/*)')).toBe('0');
    expect(failureOf('oauth', 'device-poll-too-fast', 'type')).toBe('OAUTH-DEVICE-SLOW-DOWN');
    expect(q('name(//testcase[starts-with(@name,"user-code-charset")]/*)')).toBe('error');
    expect(failureOf('oauth', 'user-code-charset', 'type')).toBe('SG_TARGET_TIMEOUT');
    expect(failureOf('oauth', 'device-code-expiry', 'message')).toContain('time-bound: the target has no clock-control hook');
    expect(q('name(//testcase[starts-with(@name,"pkce-plain-rejected")]/*)')).toBe('skipped');
    expect(failureOf('oauth', 'state-echoed', 'type')).toBe('stale-baseline');
    expect(failureOf('plugin', 'plugin (suite setup)', 'type')).toBe('SG_TARGET_UNREACHABLE');
  });

  it('puts the full failure description in the failure text', () => {
    const text = q('string(//testcase[starts-with(@name,"device-poll-too-fast")]/failure)');
    expect(text).toContain('OAUTH-DEVICE-SLOW-DOWN (MUST): Polling sooner than `interval` returns slow_down');
    expect(text).toMatch(/expected: \{[^]*"id": ?123456789012345678901234567890/);
    expect(text).toContain(`"id": ${BIG_ID}`);
    expect(text).toContain('exchange: POST /login/oauth/access_token -> 400 (3 ms)');
    expect(text).toContain('"device_code": "[redacted]"');
    const prop = q('string(//testcase[starts-with(@name,"redirect-uri-rules")]/failure)');
    for (const s of ['seed: 1337 (runs: 200, shrinks: 4)', 'path: 7:2:0', 'counterexample: [', 'http://evil.example/cb', `replay: ${REPLAY}`]) {
      expect(prop).toContain(s);
    }
  });

  it('round-trips hostile strings through a real parser (markup kept, illegal characters replaced)', () => {
    const msg = failureOf('oauth', 'device-poll-too-fast', 'message');
    expect(msg).toBe('OAUTH-DEVICE-SLOW-DOWN: body.error differs: <&>"\' nul\uFFFD bell\uFFFD emoji😀 lone\uFFFD cdata]]> end');
  });

  it('maps every requirement status', () => {
    const req = (name: string, attr: string) => failureOf('oauth.requirements', name, attr);
    expect(q('count(//testcase[@name="OAUTH-DEVICE-CODE-RESPONSE (MUST)"]/*)')).toBe('0');
    expect(q('name(//testcase[@name="OAUTH-DEVICE-SLOW-DOWN (MUST)"]/*)')).toBe('failure');
    expect(q('string(//testcase[@name="OAUTH-DEVICE-SLOW-DOWN (MUST)"]/failure)')).toContain('- device-poll-too-fast: body.error differs');
    expect(req('OAUTH-TOKEN-EXPIRY', 'message')).toBe('untested: every covering case was skipped');
    expect(req('OAUTH-ERROR-URI', 'message')).toBe('excluded: payload not shown in the spec');
    expect(req('OAUTH-PKCE-PLAIN', 'message')).toBe('expected failure (baseline): vendor ticket VND-1234');
    expect(req('OAUTH-STATE-ECHO', 'type')).toBe('stale-baseline');
    expect(req('OAUTH-STATE-ECHO', 'message')).toBe('listed in the baseline as expected to fail, but it passes: remove it from the baseline');
  });

  it('puts target and seed into testsuite properties (engine values win over suite ones)', () => {
    const prop = (name: string) => q(`string(//testsuite[@name="oauth"]/properties/property[@name="${name}"]/@value)`);
    expect(prop('target')).toBe('http://127.0.0.1:43121');
    expect(prop('seed')).toBe('1337');
    expect(prop('profile')).toContain('<&>"\'');
    expect(q('count(//testcase/properties)')).toBe('0');
  });

  it('is what createJUnitReporter writes in finish(), creating parent folders', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'specgate-junit-')), 'deep', 'er', 'junit.xml');
    const reporter = createJUnitReporter(path);
    const run = makeRunResult();
    for (const e of eventsFor(run)) reporter.onEvent(e);
    await reporter.finish();
    expect(validate(path).ok).toBe(true);
    expect(xpath(path, 'string(/testsuites/@tests)')).toBe(q('string(/testsuites/@tests)'));
  });
});
