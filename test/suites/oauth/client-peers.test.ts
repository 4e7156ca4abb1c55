import { beforeAll, describe, expect, it } from 'vitest';
import { suite } from '../../../suites/oauth/index.js';
import { declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import { loadedSuite } from '../../helpers/suite-facts.js';
import { OCTOKIT_CLIENT, clientRequirements, missingBuild, nodeCommand, runClientSuite, type CliRun } from '../../fixtures/oauth/clients/cli.js';

/**
 * The client side of the oauth suite against real third-party clients: octokit's OAuth
 * libraries (@octokit/auth-oauth-device 8 for the device flow, @octokit/oauth-methods 6 for the
 * web flow), driven by test/fixtures/oauth/clients/peers/octokit.ts. Every requirement reported
 * failed here was confirmed by hand: suites/oauth/CLIENT-FINDINGS.md has the exchange and the
 * library code behind each. A new failure, or a finding that disappears, fails this test.
 */
const octokit = requirePeer(
  '@octokit/auth-oauth-device and @octokit/oauth-methods',
  moduleAvailable('@octokit/auth-oauth-device') && moduleAvailable('@octokit/oauth-methods') && moduleAvailable('@octokit/request') && missingBuild() === undefined,
  'npm install, then npm run build',
);
declarePeer(octokit);

/** The deviations confirmed in CLIENT-FINDINGS.md, by requirement. */
const CONFIRMED = [
  'OAUTH-CLIENT-BEARER', // the device library's hook sends `Authorization: token <ACCESS_TOKEN>`
  'OAUTH-CLIENT-PKCE', // oauth-methods has no PKCE
  'OAUTH-CLIENT-POLL-INTERVAL', // after slow_down the device library goes back to the old interval
  'OAUTH-CLIENT-POLL-EXPIRES-IN', // the device library polls on past expires_in until the platform answers expired_token
  'OAUTH-CLIENT-REVALIDATE-USER', // comma-separated granted scopes defeat the device library's token cache
  'OAUTH-CLIENT-SCOPE-SPACES', // oauth-authorization-url joins scopes with commas
  'OAUTH-CLIENT-STATE', // oauth-authorization-url's default state is Math.random in base 36 (~57 bits)
];

/** The PKCE rules for the parameters a client sends (OAUTH-CLIENT-PKCE-* in the catalog), which oauth-methods never sends. */
const NOT_APPLICABLE = loadedSuite(suite).requirements.filter((r) => r.id.startsWith('OAUTH-CLIENT-PKCE-') && r.excluded === undefined).map((r) => r.id).sort();

describe.skipIf(octokit.skip)('octokit OAuth clients judged by the client-side cases', () => {
  let run: CliRun;
  beforeAll(async () => {
    run = await runClientSuite(nodeCommand(OCTOKIT_CLIENT));
  }, 300_000);

  it('fails exactly the confirmed deviations', () => {
    expect(clientRequirements(run.report, 'failed')).toEqual([...CONFIRMED].sort());
  });

  it('passes everything else, with no case left unjudged', () => {
    expect(clientRequirements(run.report, 'untested')).toEqual([]);
    const cases = run.report.suites.flatMap((s) => s.cases);
    const open = cases.filter((c) => c.outcome === 'errored' || c.outcome === 'skipped');
    expect(open.filter((c) => !c.notApplicable).map((c) => `${c.id}: ${c.reason ?? ''}`)).toEqual([]);
    // oauth-methods sends no PKCE parameters, so the rules for the ones sent do not apply to it
    expect(NOT_APPLICABLE.length).toBeGreaterThan(0);
    expect(clientRequirements(run.report, 'not-applicable')).toEqual(NOT_APPLICABLE);
  });

  it('reports each deviation with the exchange that shows it', () => {
    const byId = new Map(run.report.requirements.map((v) => [v.id, v]));
    expect(byId.get('OAUTH-CLIENT-BEARER')?.failures[0]?.exchange?.request).toMatchObject({ path: '/api/user', headers: { authorization: expect.stringMatching(/^token /) } });
    expect(byId.get('OAUTH-CLIENT-POLL-INTERVAL')?.failures[0]?.message).toMatch(/in force after slow_down/);
    // the digits of Math.random() in base 36: mostly 10 or 11 of them, but from 6 to 15 in two million draws, so no tighter bound
    expect(byId.get('OAUTH-CLIENT-STATE')?.failures[0]?.actual).toEqual([expect.stringMatching(/^[0-9a-z]{1,20}$/), expect.stringMatching(/^[0-9a-z]{1,20}$/)]);
    expect(byId.get('OAUTH-CLIENT-SCOPE-SPACES')?.failures[0]?.actual).toBe('repo,read:user');
  });
});
