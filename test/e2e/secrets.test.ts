/**
 * A credential from `${env:...}` never shows in any output. The echo case sends it as a header,
 * a form field and a query parameter; the target echoes it back raw and encoded and the case
 * fails on purpose, so the failure (expected, actual, exchange) is full of it. Every report and
 * the console must hold no trace of it: raw, URL-encoded, form-encoded, base64, base64url, or
 * inside a Basic credential.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_HOOK, assertBuilt, caseOf, demoSection, outputsOf, reportOf, runDemo, statusMap, tempDir, writeProfile } from './cli.js';
import { CONFORMANT } from './demo-verdicts.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { failedAssertions } from '../helpers/verdicts.js';

// characters that URL, form and base64 encodings all spell differently
const SECRET = 'Zq9!s3cr3t/v@lue+Key=~ä';

function tracesOf(secret: string): Record<string, string> {
  const b64 = Buffer.from(secret).toString('base64');
  return {
    raw: secret,
    'URL-encoded': encodeURIComponent(secret),
    'form-encoded': new URLSearchParams([['k', secret]]).toString().slice(2),
    base64: b64.replace(/=+$/, ''),
    base64url: b64.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
    'Basic credential': Buffer.from(`demo:${secret}`).toString('base64').replace(/=+$/, ''),
    'JSON-escaped': JSON.stringify(secret).slice(1, -1),
  };
}

describe('secrets from the environment', () => {
  const tmp = tempDir();
  let server: FaultServer;
  let run: Awaited<ReturnType<typeof runDemo>>;
  let outputs: Record<string, string>;

  beforeAll(async () => {
    assertBuilt();
    server = await startFaultServer('leaky-echo');
    const profile = writeProfile(tmp.dir, 'secret', {
      name: 'secret-profile',
      suites: { demo: demoSection(server.url, { clock: CLOCK_HOOK, vars: { base_url: server.url, api_key: '${env:DEMO_SECRET}' } }) },
    });
    run = await runDemo(tmp.dir, ['--target', profile, '--verbose'], { DEMO_SECRET: SECRET });
    outputs = outputsOf(run);
  });
  afterAll(async () => {
    await server.stop();
    tmp.remove();
  });

  it('fails the echo case on purpose, with the exchange in the report', () => {
    expect(run.code).toBe(1);
    expect(statusMap(reportOf(run))).toEqual({ ...CONFORMANT, 'DEMO-ECHO': 'failed' });
    const c = caseOf(reportOf(run), 'echo-key');
    expect(c.failures.length).toBeGreaterThan(0);
    // not vacuous: the redacted secret is visibly masked where it was
    const header = failedAssertions(c.failures).find((f) => f.message.startsWith('$.header'));
    expect(header).toMatchObject({ expected: '***', actual: '*** (seen)' });
    expect(outputs['JSON report']).toContain('/echo?key=***');
    expect(outputs['JUnit report']).toContain('***');
    expect(outputs['TAP report']).toContain('***');
    expect(outputs['console']).toContain('***');
  });

  it.each(Object.entries(tracesOf(SECRET)))('no output holds the secret %s', (_form, trace) => {
    for (const [name, text] of Object.entries(outputs)) expect({ output: name, leaks: text.includes(trace) }).toEqual({ output: name, leaks: false });
  });
});
