/**
 * Page visits keep the run's deadlines: the oauth sign-in-page cases open the platform in
 * headless Chromium, and against a platform that accepts connections and never answers, with a
 * small `http.timeoutMs` in the profile, they end with SG_TARGET_TIMEOUT naming that deadline,
 * not after a fixed wait of the browser's own. Needs `npm run build` and Chromium.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_HINT, findChromium } from '../../src/targets/browser/find-chromium.js';
import { declarePeer, requirePeer } from '../helpers/peer.js';
import { assertBuilt, caseOf, readReport, runCli, tempDir, writeProfile } from './cli.js';
import { silentServer, type Hostile } from './hostile-targets.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

const tmp = tempDir('specgate-browser-deadline-');
let silent: Hostile | undefined;
afterAll(async () => {
  await silent?.stop();
  tmp.remove();
});

const TIMEOUT_MS = 1500;
const CASES = ['sign-in-page-suggests-login', 'sign-in-page-offers-sign-up'];

describe.skipIf(chromium.skip)('a browser visit of a target that never answers', () => {
  beforeAll(() => assertBuilt());

  it(`ends with SG_TARGET_TIMEOUT naming the profile's http.timeoutMs (${TIMEOUT_MS} ms)`, async () => {
    silent = await silentServer();
    const url = silent.url;
    const profile = writeProfile(tmp.dir, 'silent-platform', {
      suites: {
        oauth: {
          vars: {
            auth_url: url,
            api_url: url,
            client_id: 'Iv1.client',
            client_secret: 'secret',
            callback_url: 'http://127.0.0.1:7777/callback',
            device_client_id: 'Iv1.device',
            disabled_device_client_id: 'Iv1.disabled',
            user_login: 'octo-tester',
          },
          secrets: ['client_secret'],
          http: { timeoutMs: TIMEOUT_MS },
        },
      },
    });
    const json = join(tmp.dir, 'results.json');
    const res = await runCli(['run', '--suite', 'oauth', '--target', profile, '--case', CASES.join(','), '--report', `json=${json}`], { cwd: tmp.dir });
    expect(res.stderr).toBe('');
    const report = readReport(json);
    for (const id of CASES) {
      const c = caseOf(report, id);
      expect([id, c.outcome, c.errorCode]).toEqual([id, 'errored', 'SG_TARGET_TIMEOUT']);
      expect(c.reason).toContain(`did not load within ${TIMEOUT_MS} ms (the target profile's http.timeoutMs)`);
    }
    expect(res.code).toBe(3);
  }, 120_000);
});
