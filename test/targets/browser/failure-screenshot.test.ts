/**
 * Where a failed page step's screenshot goes: beside the run's reports, in
 * `<report folder>/screenshots/<suite>/`, named after the case, the action and the step, and
 * named in the failure the case reports.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserAgent } from '../../../src/engine/agents/browser-agent.js';
import { prepareTarget } from '../../../src/engine/target-setup.js';
import { SpecgateError } from '../../../src/errors.js';
import type { Page } from 'playwright-core';
import { ScreenshotNames, defaultScreenshotDir, reportScreenshotDir, saveFailureScreenshot } from '../../../src/targets/browser/failure-screenshot.js';
import { CHROMIUM_HINT, findChromium } from '../../../src/targets/browser/find-chromium.js';
import { listenOnLoopback, type Listening } from '../../../src/targets/loopback-server.js';
import type { HttpClient, SuiteTarget } from '../../../src/targets/types.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('failure screenshot names', () => {
  it('puts a suite in a folder of its own and counts a name used again within the run', () => {
    const names = new ScreenshotNames('/r/screenshots');
    const subject = { suite: 'oauth', caseId: 'authorize-echoes-state', action: 'approve', step: 4 };
    expect(names.next(subject)).toBe('/r/screenshots/oauth/authorize-echoes-state--approve--step4.png');
    expect(names.next(subject)).toBe('/r/screenshots/oauth/authorize-echoes-state--approve--step4-2.png');
    expect(names.next({ ...subject, step: 2 })).toBe('/r/screenshots/oauth/authorize-echoes-state--approve--step2.png');
    // a name part that is no plain file name is made one; no suite, no folder
    expect(names.next({ caseId: 'needs/a person', action: '../up' })).toBe('/r/screenshots/needs_a_person--.._up.png');
  });

  it('starts every run at the plain name, whatever an earlier run left in the folder', () => {
    const subject = { suite: 'oauth', caseId: 'c', action: 'approve' };
    new ScreenshotNames('/r/screenshots').next(subject);
    expect(new ScreenshotNames('/r/screenshots').next(subject)).toBe('/r/screenshots/oauth/c--approve.png');
  });

  it('keeps the report folder of the run, made absolute, and the temp folder without one', () => {
    expect(reportScreenshotDir('/work/out/reports')).toBe('/work/out/reports/screenshots');
    expect(reportScreenshotDir('reports')).toBe(join(process.cwd(), 'reports', 'screenshots'));
    expect(defaultScreenshotDir()).toBe(join(tmpdir(), 'specgate-screenshots'));
  });
});

describe('saving a failure screenshot', () => {
  /** A page that can only be photographed, writing to `path` when given one as Playwright does: enough for where the picture goes. */
  const page = {
    screenshot: async (o?: { path?: string }) => {
      if (o?.path) writeFileSync(o.path, PNG);
      return PNG;
    },
  } as unknown as Page;

  it('writes the picture, its folders made, and never through a symbolic link planted on the way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'specgate-shot-'));
    try {
      const file = join(dir, 'screenshots', 'oauth', 'c--approve.png');
      expect(await saveFailureScreenshot(page, file)).toBe(file);
      expect(readFileSync(file)).toEqual(PNG);
      // a link where the suite's folder goes, pointing elsewhere: no picture, nothing written there
      const elsewhere = join(dir, 'elsewhere');
      mkdirSync(elsewhere);
      symlinkSync(elsewhere, join(dir, 'screenshots', 'affiliate'));
      expect(await saveFailureScreenshot(page, join(dir, 'screenshots', 'affiliate', 'c--visit.png'))).toBeUndefined();
      // and a link at the file's own name
      symlinkSync(join(elsewhere, 'taken.png'), join(dir, 'screenshots', 'oauth', 'c--deny.png'));
      expect(await saveFailureScreenshot(page, join(dir, 'screenshots', 'oauth', 'c--deny.png'))).toBeUndefined();
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const noHttp = (): HttpClient => ({ send: () => Promise.reject(new Error('no request is expected here')), close: async () => {} });

describe.skipIf(chromium.skip)('a failed page step of a profile target', () => {
  let site: Listening;
  let reports: string;
  let target: SuiteTarget | undefined;

  beforeAll(async () => {
    site = await listenOnLoopback(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><h1>Sign in</h1><form id="sign-in"><input name="login"></form>');
      }),
    );
    reports = mkdtempSync(join(tmpdir(), 'specgate-reports-'));
  });
  afterAll(async () => {
    await target?.stop();
    await site?.stop();
    if (reports) rmSync(reports, { recursive: true, force: true });
  });

  it('is pictured beside the reports, in the suite folder, and the failure names the file', async () => {
    const section = {
      vars: { auth_url: site.url },
      agent: { mode: 'browser' as const, stepTimeoutMs: 4000, actions: { approve: [{ goto: '${auth_url}/login/oauth/authorize' }, { click: 'form#approve button' }] } },
    };
    ({ target } = await prepareTarget({ name: 'oauth', dir: '/nowhere' }, { section, label: 'a platform', secrets: [] }, { includeSlow: false, http: noHttp, reportDir: reports }));
    const agent = target.agent;
    expect(agent).toBeInstanceOf(BrowserAgent);
    if (!(agent instanceof BrowserAgent)) return;
    const inCase = agent.forCase({ caseId: 'authorize-redirects-with-code', vars: {} });
    const failures: SpecgateError[] = [];
    for (let i = 0; i < 2; i++) {
      const e = await inCase.perform('approve', {}).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(SpecgateError);
      failures.push(e as SpecgateError);
    }
    const first = join(reports, 'screenshots', 'oauth', 'authorize-redirects-with-code--approve--step2.png');
    const second = join(reports, 'screenshots', 'oauth', 'authorize-redirects-with-code--approve--step2-2.png');
    expect(failures.map((f) => f.message)).toEqual(
      [first, second].map(
        (file) =>
          `the browser user agent could not "approve" in case authorize-redirects-with-code: step 2 (click "form#approve button") failed: no element matching "form#approve button" could be used within 4000 ms on ${site.url}/login/oauth/authorize; screenshot of the page: ${file}`,
      ),
    );
    expect(failures.map((f) => f.detail?.['screenshot'])).toEqual([first, second]);
    for (const file of [first, second]) expect(readFileSync(file).subarray(0, 8)).toEqual(PNG);
  }, 30_000);
});
