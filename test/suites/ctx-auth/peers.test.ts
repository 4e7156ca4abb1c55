import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { pool } from '../../../src/engine/run-suite.js';
import { tempDir } from '../../e2e/cli.js';
import { builtSpecgate, declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import { OIDC_CTX_PEER, SDK_SERVER_PEER, answered, caseResult, launchPeer, messages, runServerSide, serverStatuses, withStatus, type LaunchedPeer, type ServerRun } from '../../fixtures/ctx-auth/peers/server-peers.js';

/**
 * Published servers through the server side of the ctx-auth suite, by the real command line with
 * a target profile each launcher writes (header names mapped, a clock hook that moves the
 * server's Date.now): the @modelcontextprotocol/sdk 1.32.2 authorization router with its demo
 * provider, with and without registration, and oidc-provider 8.8.1 in front of a small /ctx
 * resource. Every failure asserted here was reproduced by hand (suites/ctx-auth/FINDINGS.md has
 * the requests and answers). A change in these sets is a changed peer or a harness bug: check by
 * hand before updating them.
 */
const built = builtSpecgate(SDK_SERVER_PEER, OIDC_CTX_PEER, 'suites/ctx-auth/index.js');
const sdk = requirePeer('@modelcontextprotocol/sdk 1.32 (server)', moduleAvailable('@modelcontextprotocol/sdk/server/auth/router.js') && moduleAvailable('express'), 'npm install (devDependency @modelcontextprotocol/sdk@1.32.2)');
const oidc = requirePeer('oidc-provider 8', moduleAvailable('oidc-provider'), 'npm install (devDependency oidc-provider@8.8.1)');
declarePeer(built);
declarePeer(sdk);
declarePeer(oidc);

/**
 * Failures of the SDK's demo provider that come from one cause: it throws plain errors where the
 * SDK's handlers expect its OAuth error classes, so an unknown, used or foreign code and an
 * unknown or expired token are answered 500 server_error.
 */
/** No profile here names a third party (vars.delegation_url): the delegation rules are not applicable. */
const DELEGATION = ['REDIRECT', 'EXCHANGE', 'OWN-TOKEN', 'STATUS', 'MAPPING', 'EXPIRY', 'REDIRECT-URIS', 'FAILURE'].map((r) => `CTX-SRV-DELEGATION-${r}`);

/** Sorted, as withStatus gives them. */
const sorted = (ids: string[]): string[] => [...ids].sort();

const SDK_FAILS = ['CTX-SRV-AUTHZ-ERROR-REDIRECT', 'CTX-SRV-TOKEN-ERROR-SHAPE', 'CTX-SRV-401-INVALID', 'CTX-SRV-401-EXPIRED', 'CTX-SRV-REFRESH'];

/**
 * The demo provider refuses a used or foreign code with 500 server_error: no token comes back, so
 * CODE-SINGLE-USE and CODE-CLIENT-BOUND hold (the status and error code are TOKEN-ERROR-SHAPE's
 * to judge, and fail there); the 500 to a made-up token fails 401-INVALID alone (there is no 401
 * whose challenge WWW-AUTHENTICATE could judge).
 */
function refusalsJudgedWhereTheyBelong(r: RunResult): void {
  for (const id of ['CTX-SRV-CODE-SINGLE-USE', 'CTX-SRV-CODE-CLIENT-BOUND', 'CTX-SRV-WWW-AUTHENTICATE']) expect(serverStatuses(r)[id], id).toBe('passed');
  expect(caseResult(r, 'code-single-use').outcome).toBe('passed');
  expect(caseResult(r, 'code-bound-to-its-client').outcome).toBe('passed');
  expect(caseResult(r, 'resource-without-token').outcome).toBe('passed');
}

describe.skipIf(built.skip || sdk.skip || oidc.skip)('published servers through the server side of the ctx-auth suite', () => {
  // made in beforeAll: a skipped block still runs its body, and would leave the folder behind
  let work = { dir: '', remove: (): void => undefined };
  const peers: LaunchedPeer[] = [];
  const runs = new Map<string, ServerRun>();
  /** What the oidc-provider origin answers at the two well-known metadata paths. */
  const wellKnown: Record<string, { status: number; body: unknown }> = {};
  afterAll(() => {
    peers.forEach((p) => p.stop());
    work.remove();
  });

  beforeAll(async () => {
    work = tempDir('specgate-ctx-peers-');
    const jobs: Record<string, [string, string[]]> = {
      sdk: [SDK_SERVER_PEER, []],
      'sdk-no-registration': [SDK_SERVER_PEER, ['--registration', 'off']],
      oidc: [OIDC_CTX_PEER, []],
    };
    await pool(Object.keys(jobs), 2, async (name) => {
      const [launcher, args] = jobs[name] ?? ['', []];
      const peer = await launchPeer(launcher, args, work.dir, name);
      peers.push(peer);
      try {
        if (name === 'oidc') {
          const origin = new URL(String(peer.vars['server_url'])).origin;
          for (const doc of ['oauth-authorization-server', 'openid-configuration']) {
            const res = await fetch(`${origin}/.well-known/${doc}`);
            wellKnown[doc] = { status: res.status, body: await res.json() };
          }
        }
        runs.set(name, await runServerSide(peer.profile, work.dir, name));
      } finally {
        peer.stop();
      }
    });
  }, 240_000);

  const run = (name: string): RunResult => {
    const r = runs.get(name);
    if (!r) throw new Error(`no run ${name}`);
    return r.report;
  };

  describe('@modelcontextprotocol/sdk 1.32.2 (router, demo provider, bearer middleware) with registration', () => {
    it('fails exactly where FINDINGS.md says, judges everything else that applies, and passes it', () => {
      const r = run('sdk');
      expect(withStatus(r, 'failed')).toEqual([...SDK_FAILS, 'CTX-SRV-REDIRECT-SCHEME'].sort());
      expect(withStatus(r, 'not-applicable')).toEqual(sorted(['CTX-SRV-CLIENT-CREDENTIALS', 'CTX-SRV-FALLBACK-ENDPOINTS', 'CTX-SRV-FALLBACK-REFRESH', 'CTX-SRV-NO-DCR-CLIENT', 'CTX-SRV-REFRESH-ROTATION', ...DELEGATION]));
      expect(withStatus(r, 'untested')).toEqual([]);
      expect(runs.get('sdk')?.exitCode).toBe(1);
    });

    it('shows the evidence of each failure', () => {
      const r = run('sdk');
      expect(messages(r, 'authorization-error-redirected-token-response-type')).toEqual([
        'the redirect answering response_type=token: $.error expected "unsupported_response_type", got "invalid_request"',
        'the redirect answering response_type=token: $.state expected "err-token-response-type", got (absent)',
      ]);
      const registered = caseResult(r, 'registration-refuses-http-non-loopback').failures[0];
      expect(registered && answered(registered)?.status).toBe(201);
      expect(registered && JSON.parse(answered(registered)?.body ?? '{}')).toMatchObject({ redirect_uris: ['http://client.example.com/callback'] });
      expect(messages(r, 'token-error-unknown-code')).toContain('$.error: expected one of ["invalid_grant"], got "server_error"');
      expect(messages(r, 'token-error-no-code')).toContain('status: expected 400, got 500');
      expect(messages(r, 'resource-invalid-token', 'CTX-SRV-401-INVALID')).toEqual(['status: expected 401, got 500']);
      expect(messages(r, 'resource-expired-token')).toEqual(['the resource answering a token 3601 seconds after it was issued (the target advertised expires_in=3600): expected 401, got 500']);
      expect(messages(r, 'refresh-token-grant')).toEqual([expect.stringMatching(/^refresh_token of the token response: none was issued \(\$ expected a string, got absent/)]);
      expect(caseResult(r, 'refresh-token-rotation').reason).toMatch(/^the server issues no refresh token/);
      refusalsJudgedWhereTheyBelong(r);
    });
  });

  describe('@modelcontextprotocol/sdk 1.32.2 without registration, its seeded clients in the profile', () => {
    it('fails the same, less the registration of an http redirect URI, plus the registration SHOULD; the seeded clients run the flow', () => {
      const r = run('sdk-no-registration');
      expect(withStatus(r, 'failed')).toEqual([...SDK_FAILS, 'CTX-SRV-DCR'].sort());
      expect(withStatus(r, 'not-applicable')).toEqual(sorted(['CTX-SRV-CLIENT-CREDENTIALS', 'CTX-SRV-DCR-INVALID', 'CTX-SRV-DCR-VALID', 'CTX-SRV-FALLBACK-ENDPOINTS', 'CTX-SRV-FALLBACK-REFRESH', 'CTX-SRV-REFRESH-ROTATION', ...DELEGATION]));
      expect(withStatus(r, 'untested')).toEqual([]);
      expect(serverStatuses(r)['CTX-SRV-NO-DCR-CLIENT']).toBe('passed');
      expect(serverStatuses(r)['CTX-SRV-REDIRECT-SCHEME']).toBe('passed');
      refusalsJudgedWhereTheyBelong(r);
    });
  });

  describe('oidc-provider 8.8.1 on the fallback paths, with a /ctx resource reading its token store', () => {
    it('fails exactly where FINDINGS.md says, and passes everything else that applies', () => {
      const r = run('oidc');
      expect(withStatus(r, 'failed')).toEqual(['CTX-SRV-401-EXPIRED', 'CTX-SRV-METADATA', 'CTX-SRV-REDIRECT-SCHEME']);
      expect(withStatus(r, 'not-applicable')).toEqual(sorted(['CTX-SRV-CLIENT-CREDENTIALS', 'CTX-SRV-METADATA-ISSUER', 'CTX-SRV-METADATA-S256', 'CTX-SRV-METADATA-SHAPE', 'CTX-SRV-NO-DCR-CLIENT', ...DELEGATION]));
      expect(withStatus(r, 'untested')).toEqual([]);
      expect(runs.get('oidc')?.exitCode).toBe(1);
    });

    it('publishes OpenID Connect discovery, not RFC 8414 metadata, at the root', () => {
      expect(wellKnown['oauth-authorization-server']?.status).toBe(404);
      expect(wellKnown['openid-configuration']?.status).toBe(200);
      expect(wellKnown['openid-configuration']?.body).toMatchObject({ code_challenge_methods_supported: ['S256'], authorization_endpoint: expect.stringMatching(/\/authorize$/), registration_endpoint: expect.stringMatching(/\/register$/) });
    });

    it('shows the evidence of each failure', () => {
      const r = run('oidc');
      const [published] = caseResult(r, 'metadata-published').failures;
      expect(published && answered(published)).toMatchObject({ status: 404 });
      expect(published?.exchange?.summary).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server -> 404$/);
      const registered = caseResult(r, 'registration-refuses-http-non-loopback').failures[0];
      expect(registered && answered(registered)?.status).toBe(201);
      expect(messages(r, 'resource-expired-token')).toEqual(['the resource answering a token 3601 seconds after it was issued (the target advertised expires_in=3600): expected 401, got 200']);
    });
  });
});
