/**
 * Chromium keeps to its temporary folder: a run whose cases open pages in the browser (the oauth
 * sign-in-page cases against the bundled reference), and a run whose user agent is Chromium (the
 * profile of `specgate serve oauth --profile` with its actions as page steps), leave the user's
 * home and XDG folders as they found them (no `~/.config/chromium`, no `~/.cache/dconf`), and
 * leave no folder of their own in the temp folder once they have ended. Needs `npm run build`
 * and Chromium.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_HINT, findChromium } from '../../src/targets/browser/find-chromium.js';
import { declarePeer, requirePeer } from '../helpers/peer.js';
import { writeOAuthBrowserProfile } from '../fixtures/oauth/browser-actions.js';
import { assertBuilt, caseOf, readReport, runCli, tempDir } from './cli.js';
import { readEnvFile, serveReference } from './served-reference.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

const work = tempDir('specgate-browser-home-');
const home = tempDir('specgate-empty-home-');
const temp = tempDir('specgate-empty-tmp-');
afterAll(() => {
  work.remove();
  home.remove();
  temp.remove();
});

const CASES = ['sign-in-page-suggests-login', 'select-account-shows-picker'];

/** Cases in which the browser user agent signs in and approves (web flow) or enters a user code and authorizes (device flow). */
const AGENT_CASES = ['authorize-redirects-with-code', 'device-authorized-returns-token'];

/** Every file and folder below `dir`, relative to it. */
function contents(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe.skipIf(chromium.skip)('a run that drives Chromium', () => {
  beforeAll(() => assertBuilt());

  // the XDG folders, when set, are where Chromium and GLib write instead of the home's own
  const env = {
    HOME: home.dir,
    XDG_CONFIG_HOME: join(home.dir, '.config'),
    XDG_CACHE_HOME: join(home.dir, '.cache'),
    XDG_DATA_HOME: join(home.dir, '.local', 'share'),
    XDG_STATE_HOME: join(home.dir, '.local', 'state'),
    XDG_RUNTIME_DIR: join(home.dir, 'run'),
    TMPDIR: temp.dir,
  };

  it('writes nothing to the home folder and leaves nothing in the temp folder', async () => {
    const json = join(work.dir, 'results.json');
    const res = await runCli(['run', '--suite', 'oauth', '--case', CASES.join(','), '--report', `json=${json}`], { cwd: work.dir, env });
    const report = readReport(json);
    // the pages were opened: the cases passed in the browser, they were not skipped for want of one
    for (const id of CASES) expect([id, caseOf(report, id).outcome]).toEqual([id, 'passed']);
    expect(res.code).toBe(0);
    expect(contents(home.dir)).toEqual([]);
    expect(contents(temp.dir)).toEqual([]);
  }, 180_000);

  it('with Chromium as the user agent, writes nothing to the home folder and leaves nothing in the temp folder', async () => {
    const served = join(work.dir, 'served.yaml');
    const reference = await serveReference(['oauth', '--profile', served], work.dir);
    try {
      const target = join(work.dir, 'browser.yaml');
      writeOAuthBrowserProfile(served, target);
      const json = join(work.dir, 'agent-results.json');
      const res = await runCli(['run', '--suite', 'oauth', '--target', target, '--case', AGENT_CASES.join(','), '--report', `json=${json}`], { cwd: work.dir, env: { ...readEnvFile(join(work.dir, 'served.env')), ...env } });
      const report = readReport(json);
      // the user agent acted in the browser: the cases passed, they were not skipped for want of one
      for (const id of AGENT_CASES) expect([id, caseOf(report, id).outcome]).toEqual([id, 'passed']);
      expect(res.code).toBe(0);
      expect(contents(home.dir)).toEqual([]);
      expect(contents(temp.dir)).toEqual([]);
    } finally {
      await reference.stop();
    }
  }, 180_000);
});
