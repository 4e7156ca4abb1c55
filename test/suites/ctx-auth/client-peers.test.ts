import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { fromRoot } from '../../../src/paths.js';
import { namedRuns } from '../../helpers/named-runs.js';
import { builtSpecgate, declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import { SUITE_MODULE, casesOf, clientStatuses, nodeCommand, onlyFailing, runCtxClientCases } from '../../fixtures/ctx-auth/clients/cli.js';
import { MCP_HEADER_MAP } from '../../fixtures/ctx-auth/peers/peer-profile.js';

/**
 * Published clients through the client side of the ctx-auth suite, by the real command line
 * (`--target` a profile naming the launcher as ctx_client_command): @modelcontextprotocol/sdk
 * 1.32.2 (its header names mapped, once as a client of revision 2025-03-26 and once declared a
 * client of 2025-11-25) and oauth4webapi 3.8.8. Every failed and not-applicable requirement
 * here was confirmed by hand from what the played server received; the transcripts are in
 * suites/ctx-auth/FINDINGS.md. A change in these sets is a changed peer or a harness bug: check
 * by hand before updating them.
 */
const SDK_CLIENT = fromRoot('dist', 'test', 'fixtures', 'ctx-auth', 'peers', 'sdk-client.js');
const STRICT_CLIENT = fromRoot('dist', 'test', 'fixtures', 'ctx-auth', 'peers', 'strict-client.js');
const built = builtSpecgate(SUITE_MODULE, SDK_CLIENT, STRICT_CLIENT);
const sdk = requirePeer('@modelcontextprotocol/sdk 1.32', moduleAvailable('@modelcontextprotocol/sdk/client/index.js'), 'npm install (devDependency @modelcontextprotocol/sdk@1.32.2)');
const strict = requirePeer('oauth4webapi 3', moduleAvailable('oauth4webapi'), 'npm install (devDependency oauth4webapi@3.8.8)');
declarePeer(built);
declarePeer(sdk);
declarePeer(strict);

/** The revision the SDK's client sends in discovery and asks for in `initialize` (its latest). */
const SDK_REVISION = '2025-11-25';

function failure(r: RunResult, id: string): string {
  return r.requirements.find((v) => v.id === id)?.failures.map((f) => f.message).join(' | ') ?? '';
}

describe.skipIf(built.skip || sdk.skip || strict.skip)('published clients through the client side of the ctx-auth suite', () => {
  const run = namedRuns(
    () => ({
      sdk: () => runCtxClientCases({ profile: { vars: { ctx_client_command: nodeCommand(SDK_CLIENT) }, headers: MCP_HEADER_MAP } }),
      sdkLater: () => runCtxClientCases({ profile: { vars: { ctx_client_command: nodeCommand(SDK_CLIENT), ctx_client_revision: SDK_REVISION }, headers: MCP_HEADER_MAP } }),
      strict: () => runCtxClientCases({ profile: { vars: { ctx_client_command: nodeCommand(STRICT_CLIENT) } } }),
    }),
    180_000,
  );

  describe('@modelcontextprotocol/sdk 1.32.2, judged as a client of 2025-03-26', () => {
    it('fails exactly the version header (it sends its own latest revision) and the state check (it never compares state)', () => {
      const { report, exitCode } = run('sdk');
      expect(clientStatuses(report)).toEqual(onlyFailing('CTX-CLI-VERSION-HEADER', 'CTX-CLI-STATE-CHECKED'));
      // the header rule is a SHOULD and the state check STRICTER: neither gates at MUST
      expect(report.summary.gatingFailures).toBe(0);
      expect(exitCode).toBe(0);
    });

    it('shows the evidence: MCP-Protocol-Version 2025-11-25 on every metadata request, and the code of a changed state exchanged', () => {
      const { report } = run('sdk');
      expect(failure(report, 'CTX-CLI-VERSION-HEADER')).toMatch(/^standard scenario: request #4 GET \/\.well-known\/oauth-authorization-server carried MCP-Protocol-Version: 2025-11-25, not 2025-03-26 /);
      expect(failure(report, 'CTX-CLI-VERSION-HEADER')).toMatch(/no-metadata scenario: request #4 GET \/\.well-known\/oauth-authorization-server carried MCP-Protocol-Version: 2025-11-25/);
      expect(failure(report, 'CTX-CLI-STATE-CHECKED')).toBe("request #10 POST /token exchanged the code of request #6 GET /authorize's redirect, which returned another state than the one that request sent");
      const stateCase = casesOf(report).find((c) => c.id === 'client-state-checked');
      expect(stateCase?.failures[0]?.exchange?.response).toMatchObject({ status: 200 });
    });
  });

  describe('@modelcontextprotocol/sdk 1.32.2, declared a client of 2025-11-25 (ctx_client_revision)', () => {
    it('accepts its version header and makes the fallback rule not applicable; the state check still fails', () => {
      const { report, exitCode } = run('sdkLater');
      expect(clientStatuses(report)).toEqual({ ...onlyFailing('CTX-CLI-STATE-CHECKED'), 'CTX-CLI-FALLBACK': 'not-applicable' });
      const fallback = casesOf(report).find((c) => c.id === 'client-fallback');
      expect(fallback?.notApplicable).toBe(true);
      expect(fallback?.reason).toMatch(/^the client implements revision 2025-11-25 \(ctx_client_revision\), later than 2025-03-26/);
      // the state check is STRICTER: it does not gate at MUST
      expect(exitCode).toBe(0);
    });
  });

  describe('oauth4webapi 3.8.8', () => {
    it('fails exactly the fallback rule: without metadata it stops after the 404', () => {
      const { report, exitCode } = run('strict');
      expect(clientStatuses(report)).toEqual(onlyFailing('CTX-CLI-FALLBACK'));
      expect(failure(report, 'CTX-CLI-FALLBACK')).toMatch(/^revision mismatch: with no metadata \(#2 GET \/\.well-known\/oauth-authorization-server -> 404\), the client stopped and sent no request to the fallback endpoints/);
      expect(exitCode).toBe(1);
    });
  });
});
