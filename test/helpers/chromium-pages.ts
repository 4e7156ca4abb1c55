import type { Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { findChromium } from '../../src/targets/browser/find-chromium.js';
import { launchChromium } from '../../src/targets/browser/launch-browser.js';
import { freePort } from '../../src/targets/free-port.js';
import { listenOnLoopback, type Listening } from '../../src/targets/loopback-server.js';

/** What the hooks of {@link chromiumPages} made: the block's site and browser, the test's context and page. */
export interface ChromiumPages {
  server: Listening;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** A loopback address nobody listens on, where the site's redirects send the browser. */
  callback: string;
}

/**
 * Registers the hooks of a describe block of browser tests: the block serves `site` on a
 * loopback port and starts one Chromium; each test gets a fresh context and page, closed after
 * it. `take` is told what was made each time something was (the block's start, each test's).
 */
export function chromiumPages(site: (callback: string) => Server, take: (made: ChromiumPages) => void): void {
  const made = {} as ChromiumPages;
  beforeAll(async () => {
    made.callback = `http://127.0.0.1:${await freePort()}/cb`;
    made.server = await listenOnLoopback(site(made.callback));
    made.browser = await launchChromium(findChromium() ?? '');
    take(made);
  }, 60_000);
  afterAll(async () => {
    await made.browser?.close();
    await made.server?.stop();
  });
  beforeEach(async () => {
    made.context = await made.browser.newContext();
    made.page = await made.context.newPage();
    take(made);
  });
  afterEach(async () => {
    await made.context.close();
  });
}
