import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pool } from '../../../src/engine/run-suite.js';
import { fromRoot } from '../../../src/paths.js';
import { declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import { tempDir, writeProfile } from '../../e2e/cli.js';
import { CLIENT_CASES, CONTENT_CLIENT, clientStatuses, nodeCommand, onlyFailing, runMerchantClientCases, type MerchantCliRun } from '../../fixtures/merchant/clients/cli.js';

/**
 * The client side of the merchant suite against the published client library
 * @googleapis/content (v2.1), driven by test/fixtures/merchant/peers/content-client.ts, which
 * calls each of its methods once. suites/merchant/CLIENT-FINDINGS.md has what a launch shows and
 * the commands that reproduce it. The library keeps the original API's words in two liasettings
 * paths where the spec has neutral ones: without a profile those two requests fit no route;
 * with the profile's `paths:` mapping them back, the library conforms on all four requirements.
 */
const content = requirePeer(
  '@googleapis/content and its launcher',
  moduleAvailable('@googleapis/content') && existsSync(CONTENT_CLIENT) && existsSync(fromRoot('dist', 'cli', 'main.js')),
  'npm install (devDependency @googleapis/content), then npm run build',
);
declarePeer(content);

/** The spec's neutral path segments -> the library's words for them. */
const LIBRARY_WORDS = { accessibleprofileaccounts: 'accessiblegmbaccounts', requestprofileaccess: 'requestgmbaccess' };

/** The library's 125 methods, each called once by the launcher, and never repeated (the played service answers no 408, 429 or 5xx). */
const LIBRARY_METHODS = 125;

describe.skipIf(content.skip)('@googleapis/content judged by the client-side cases', () => {
  let tmp: ReturnType<typeof tempDir> | undefined;
  let bare: MerchantCliRun;
  let mapped: MerchantCliRun;
  let proxied: MerchantCliRun;

  beforeAll(async () => {
    tmp = tempDir('specgate-merchant-content-');
    const launcher = [process.execPath, CONTENT_CLIENT];
    const profile = writeProfile(tmp.dir, 'content', { suites: { merchant: { vars: { merchant_client_command: launcher }, paths: LIBRARY_WORDS } } });
    // A proxy that answers nothing: a launch that let the library use it would reach no service.
    const deadProxy = 'http://127.0.0.1:9';
    const proxyEnv = { HTTP_PROXY: deadProxy, http_proxy: deadProxy, HTTPS_PROXY: deadProxy, https_proxy: deadProxy, NO_PROXY: '', no_proxy: '' };
    await pool(['bare', 'mapped', 'proxied'], 2, async (which) => {
      if (which === 'bare') bare = await runMerchantClientCases({ client: nodeCommand(CONTENT_CLIENT) });
      else if (which === 'mapped') mapped = await runMerchantClientCases({ target: profile });
      else proxied = await runMerchantClientCases({ target: profile, env: proxyEnv });
    });
  }, 300_000);
  afterAll(() => tmp?.remove());

  describe('without a profile', () => {
    it('fails exactly MERCHANT-CLIENT-ROUTE; the other three pass', () => {
      expect(clientStatuses(bare.report)).toEqual(onlyFailing('MERCHANT-CLIENT-ROUTE'));
      expect(bare.exitCode).toBe(1);
    });

    it("names exactly the two requests that carry the library's own words", () => {
      const failures = bare.report.requirements.find((v) => v.id === 'MERCHANT-CLIENT-ROUTE')?.failures ?? [];
      expect(failures).toHaveLength(1);
      const failure = failures[0];
      expect(failure?.message).toMatch(new RegExp(`^2 of ${LIBRARY_METHODS} requests fit no path of the endpoint tables: `));
      expect(failure?.message).toMatch(/GET \/content\/v2\.1\/[^/]+\/liasettings\/[^/]+\/accessiblegmbaccounts: /);
      expect(failure?.message).toMatch(/POST \/content\/v2\.1\/[^/]+\/liasettings\/[^/]+\/requestgmbaccess: /);
      expect(failure?.actual).toEqual([
        expect.stringMatching(/^GET \/content\/v2\.1\/[^/]+\/liasettings\/[^/]+\/accessiblegmbaccounts\?/),
        expect.stringMatching(/^POST \/content\/v2\.1\/[^/]+\/liasettings\/[^/]+\/requestgmbaccess\?/),
      ]);
    });
  });

  describe('with a profile mapping the neutral path segments to the library words', () => {
    it('passes all four client requirements', () => {
      expect(clientStatuses(mapped.report)).toEqual(onlyFailing());
      const cases = mapped.report.suites.flatMap((s) => s.cases);
      expect(cases.map((c) => `${c.id}: ${c.outcome}`).sort()).toEqual(CLIENT_CASES.map((id) => `${id}: passed`).sort());
      expect(mapped.exitCode).toBe(0);
    });

    it('still passes with HTTP_PROXY set to a dead proxy (the launch sends loopback past proxies)', () => {
      expect(clientStatuses(proxied.report)).toEqual(onlyFailing());
      const cases = proxied.report.suites.flatMap((s) => s.cases);
      expect(cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}`)).toEqual([]);
      expect(proxied.exitCode).toBe(0);
    });
  });
});
