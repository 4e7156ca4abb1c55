/**
 * Credentials the target issues during the run never show in any output. The target below
 * answers the demo's token request with an OAuth token answer and the client of a dynamic
 * registration where a plain token string belongs, so the case fails on purpose and its failure
 * (actual value, exchange) quotes them all; the token check that follows is answered with a redirect
 * carrying an authorization code, and fails again. Nothing told specgate these values before the run: it
 * learns them from the answers. Every output is searched: console, stderr, and the JSON, JUnit,
 * TAP and HTML reports; an error code beside them stays visible.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback, type Listening } from '../../src/targets/loopback-server.js';
import { assertBuilt, caseOf, demoSection, outputsOf, reportOf, runDemo, tempDir, writeProfile, type JsonReport } from './cli.js';
import { failedAssertions } from '../helpers/verdicts.js';

/** What the target issues; characters that URL and form encodings spell differently included. */
const ISSUED = {
  access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vLXVzZXIifQ.c2lnbmF0dXJlLTAxMjM0NTY3',
  refresh_token: 'rt/Kx9+Lm2Xq7Vw3Pz=',
  id_token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJkZW1vIiwibm9uY2UiOiJuLTAxIn0.',
  client_secret: 'cs_4f8b2c9e1d7a3b6f0e5c',
  registration_access_token: 'rat.Q7vLm2Xr9TkP4sWz8NbC',
  code: 'SplxlOBeZQQYbYS6WxSbIA',
};

/** Every spelling of `value` an output could show. */
function tracesOf(value: string): string[] {
  return [...new Set([value, encodeURIComponent(value), new URLSearchParams([['k', value]]).toString().slice(2)])];
}

const tmp = tempDir('specgate-issued-');
let server: Listening;

beforeAll(async () => {
  assertBuilt();
  const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (req.method === 'POST' && path === '/token') {
        const { access_token, refresh_token, id_token, client_secret, registration_access_token } = ISSUED;
        const body = JSON.stringify({
          token: { access_token, refresh_token, id_token, token_type: 'Bearer', expires_in: 3600 },
          client: { client_id: 'demo-client-id', client_secret, registration_access_token },
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      } else {
        // the authorization code arrives in a redirect, beside an error code that is none
        res.writeHead(302, { location: `https://client.example/cb?code=${ISSUED.code}&state=demo-state`, 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'access_denied', code: 'invalid_grant' }));
      }
    });
  });
  server = await listenOnLoopback(srv);
});
afterAll(async () => {
  await server.stop();
  tmp.remove();
});

describe('credentials the target issued', () => {
  let code: number | null;
  let report: JsonReport;
  let outputs: Record<string, string>;

  beforeAll(async () => {
    const profile = writeProfile(tmp.dir, 'issuing', { suites: { demo: demoSection(server.url) } });
    const html = join(tmp.dir, 'report.html');
    const run = await runDemo(tmp.dir, ['--target', profile, '--case', 'token-issue', '--verbose', '--report', `html=${html}`]);
    code = run.code;
    report = reportOf(run);
    outputs = outputsOf(run, html);
  }, 60_000);

  it('fails the case on purpose, its failure quoting the answer that issued them, masked', () => {
    expect(code).toBe(1);
    const c = caseOf(report, 'token-issue');
    expect(c.outcome).toBe('failed');
    const issued = failedAssertions(c.failures).find((f) => f.message.includes('non-empty token'));
    expect(issued?.actual).toEqual({
      access_token: '***',
      refresh_token: '***',
      id_token: '***',
      token_type: 'Bearer',
      expires_in: 3600,
    });
    // the redirect's code is masked where it was; what is no credential stays
    expect(outputs['JSON report']).toContain('/cb?code=***&state=demo-state');
    expect(outputs['JSON report']).toContain('demo-client-id');
    expect(outputs['JSON report']).toContain('\\"code\\":\\"invalid_grant\\"');
    for (const name of ['JUnit report', 'TAP report', 'HTML report', 'console']) expect({ output: name, masks: outputs[name]?.includes('***') }).toEqual({ output: name, masks: true });
  });

  it.each(Object.entries(ISSUED))('no output holds the %s', (_field, value) => {
    for (const trace of tracesOf(value)) {
      for (const [name, text] of Object.entries(outputs)) expect({ output: name, trace, leaks: text.includes(trace) }).toEqual({ output: name, trace, leaks: false });
    }
  });
});
