import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { tempDir } from '../../e2e/cli.js';
import { namedRuns } from '../../helpers/named-runs.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';
import { CLIENT_CASES, QUERY_TOKEN_CLIENT, REFERENCE_CLIENT, SUITE_MODULE, casesOf, clientStatuses, nodeCommand, onlyFailing, runCtxClientCases } from '../../fixtures/ctx-auth/clients/cli.js';

/**
 * The client side of the ctx-auth suite through the CLI: the reference client (the embedded
 * default) passes every CTX-CLI-* requirement, launched once per scenario whatever the number of
 * cases; a client that puts its token in the query string fails exactly CTX-CLI-BEARER-EVERY and
 * CTX-CLI-TOKEN-NOT-IN-QUERY; a client that stops once discovery finds no metadata fails
 * CTX-CLI-FALLBACK as a revision mismatch, which a later ctx_client_revision makes not
 * applicable. Needs `npm run build`.
 */
const built = builtSpecgate(SUITE_MODULE, REFERENCE_CLIENT, QUERY_TOKEN_CLIENT);
declarePeer(built);

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A later revision's client in the no-metadata scenario: probes, finds no metadata, stops. */
const STOPS_AFTER_DISCOVERY = `
const url = process.env.SPECGATE_CTX_SERVER_URL;
const origin = new URL(url).origin;
const h = { [process.env.SPECGATE_CTX_VERSION_HEADER]: '2025-06-18' };
(async () => {
  await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}' });
  await fetch(origin + '/.well-known/oauth-protected-resource/ctx', { headers: h });
  const md = await fetch(origin + '/.well-known/oauth-authorization-server', { headers: h });
  if (md.status !== 200) { process.stderr.write('no authorization server metadata\\n'); process.exit(1); }
})();
`;

describe.skipIf(built.skip)('client side of the ctx-auth suite, through the CLI', () => {
  const tmp = tempDir('specgate-ctx-client-test-');
  const launches = join(tmp.dir, 'launches');
  const stopping = join(tmp.dir, 'stops-after-discovery.mjs');
  afterAll(() => tmp.remove());

  beforeAll(() => {
    writeFileSync(launches, '');
    writeFileSync(stopping, STOPS_AFTER_DISCOVERY);
  });

  const counted = `echo launch >> ${quote(launches)}; exec ${quote(process.execPath)} ${quote(fromRoot('dist', REFERENCE_CLIENT))}`;
  const run = namedRuns(
    () => ({
      reference: () => runCtxClientCases(),
      counted: () => runCtxClientCases({ client: counted }),
      query: () => runCtxClientCases({ client: nodeCommand(QUERY_TOKEN_CLIENT) }),
      mismatch: () => runCtxClientCases({ profile: { vars: { ctx_client_command: nodeCommand(stopping) } }, cases: ['client-fallback'] }),
      later: () => runCtxClientCases({ profile: { vars: { ctx_client_command: nodeCommand(stopping), ctx_client_revision: '2025-06-18' } }, cases: ['client-fallback'] }),
    }),
    240_000,
  );

  it('passes every client requirement with the reference client (the embedded default)', () => {
    const { report, exitCode } = run('reference');
    expect(casesOf(report).map((c) => c.id).sort()).toEqual([...CLIENT_CASES].sort());
    expect(casesOf(report).filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}`)).toEqual([]);
    expect(clientStatuses(report)).toEqual(onlyFailing());
    expect(exitCode).toBe(0);
  });

  it('launches the client once per scenario, not once per case', () => {
    expect(clientStatuses(run('counted').report)).toEqual(onlyFailing());
    // six scenarios: standard, custom-paths, no-metadata, no-registration, mid-session-expiry, wrong-state
    expect(readFileSync(launches, 'utf8').trim().split('\n')).toHaveLength(6);
    expect(CLIENT_CASES.length).toBeGreaterThan(6);
  });

  it('fails only CTX-CLI-BEARER-EVERY and CTX-CLI-TOKEN-NOT-IN-QUERY for a client that puts its token in the query string', () => {
    const { report, exitCode } = run('query');
    expect(clientStatuses(report)).toEqual(onlyFailing('CTX-CLI-BEARER-EVERY', 'CTX-CLI-TOKEN-NOT-IN-QUERY'));
    const message = (id: string): string => report.requirements.find((v) => v.id === id)?.failures?.[0]?.message ?? '';
    expect(message('CTX-CLI-BEARER-EVERY')).toMatch(/^request #8 POST \/ctx carried no Authorization header \(it put the token in the query string instead\); the access token was issued by request #5 POST \/token$/);
    expect(message('CTX-CLI-TOKEN-NOT-IN-QUERY')).toMatch(/^standard scenario: request #8 POST \/ctx carried the access token of request #5 POST \/token in its query string \(access_token=<hidden>\); mid-session-expiry scenario: request #\d+ POST \/ctx carried the access token/);
    expect(exitCode).toBe(1);
  });

  it('fails CTX-CLI-FALLBACK as a revision mismatch for a client that stops once discovery finds no metadata', () => {
    const { report } = run('mismatch');
    const verdict = report.requirements.find((v) => v.id === 'CTX-CLI-FALLBACK');
    expect(verdict?.status).toBe('failed');
    expect(verdict?.failures?.[0]?.message).toMatch(/^revision mismatch: with no metadata \(#2 GET \/\.well-known\/oauth-protected-resource\/ctx -> 404, #3 GET \/\.well-known\/oauth-authorization-server -> 404\), the client stopped/);
  });

  it('makes CTX-CLI-FALLBACK not applicable to a client of a later revision', () => {
    const { report, exitCode } = run('later');
    const [c] = casesOf(report);
    expect(c?.outcome).toBe('skipped');
    expect(c?.notApplicable).toBe(true);
    expect(c?.reason).toMatch(/^the client implements revision 2025-06-18 \(ctx_client_revision\), later than 2025-03-26/);
    expect(report.requirements.find((v) => v.id === 'CTX-CLI-FALLBACK')?.status).toBe('not-applicable');
    // the one case run did not apply: the run judged no gating requirement, which is not a pass
    expect(report.summary.judged).toMatchObject({ judged: 0 });
    expect(exitCode).toBe(4);
  });
});
