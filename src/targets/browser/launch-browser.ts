import { createRequire } from 'node:module';
import type { Browser, BrowserContext, BrowserType } from 'playwright-core';
import { SpecgateError } from '../../errors.js';
import { makeChromiumHome, type ChromiumHome } from './chromium-home.js';
import { requireChromium } from './find-chromium.js';

/**
 * Chromium's process model for every browser specgate starts: without site isolation, and one
 * renderer per site of a context (renderers are never shared between contexts, so visits and
 * cases stay apart). specgate keeps a tab for the next visit (shared-browser.ts) or the next case
 * (the browser agent) so that it reuses its renderer, and its pages live on loopback origins that
 * differ by port (an integration's page and the landing page it sends the visitor to, an
 * approval's round trip to a client's redirect). With Chromium's default model, tabs of two
 * contexts crossing such origins at the same time keep starting new renderers, round after round
 * (test/targets/browser/browser.test.ts shows the renderers staying as many with this model, and
 * growing without it, in Debian's whole browser; its headless shell, which specgate takes first,
 * kept them without the switches too when measured). What the pages see is the same either way.
 * Measured in the whole browser (docs/performance.md, sections `affiliate-suite` and
 * `oauth-browser`): the affiliate suite's seven page visits started 14 renderers against 4, and
 * the suite took 3.66 s against 3.94 s; the oauth suite's agent started 190 against 587.
 */
export const PROCESS_MODEL_ARGS: readonly string[] = Object.freeze(['--disable-site-isolation-trials', '--process-per-site']);

/**
 * The switches Chromium starts with: headless, no sandbox (it runs in containers as root), and
 * nothing that talks to anyone on its own (updates, sync, QUIC probes, background fetches) or
 * writes outside its temporary folder (crash reports, the default-browser check). The
 * host resolver answers every name but localhost with "not found", so a page can reach only
 * the loopback servers specgate plays, never the network. Last, the process model
 * ({@link PROCESS_MODEL_ARGS}). None may be `--disable-features` or `--blink-settings`: a repeated
 * switch replaces Playwright's own list.
 */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-crash-reporter',
  '--disable-breakpad',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  ...PROCESS_MODEL_ARGS,
]);

/** How long Chromium gets to start (ms): a busy two-core machine can take several seconds. */
export const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * A running headless Chromium with a profile of its own (a browser for one purpose; the page
 * visits of cases share one browser instead, see shared-browser.ts).
 */
export interface HeadlessBrowser {
  /** The browser's one context: pages opened in it share cookies, as one visitor's would. */
  readonly context: BrowserContext;
  readonly executablePath: string;
  /** The temporary profile folder (user-data-dir), removed on close with the home around it. */
  readonly profileDir: string;
  /** Closes the browser and removes its profile folder; safe to call more than once. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  executablePath: string;
  headless: true;
  args: string[];
  env: Record<string, string>;
  timeout: number;
  handleSIGINT: false;
  handleSIGTERM: false;
  handleSIGHUP: false;
}

/**
 * How every specgate browser starts: headless, with the switches above, under a time limit, its
 * home, caches and crash dumps in `home` (see chromium-home.ts) rather than the user's.
 */
export function launchOptions(executablePath: string, home: ChromiumHome): LaunchOptions {
  // specgate stops the browser itself (close, abort); Playwright's own handlers would race it.
  return {
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS, `--crash-dumps-dir=${home.crashDir}`],
    env: home.env,
    timeout: LAUNCH_TIMEOUT_MS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
}

const loadCommonJs = createRequire(import.meta.url);

function cannotStart(executablePath: string, e: unknown): SpecgateError {
  const first = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
  return new SpecgateError('SG_TARGET_UNREACHABLE', `cannot start Chromium (${executablePath}): ${first}; check that it runs headless on this machine (${executablePath} --headless --no-sandbox --dump-dom about:blank)`);
}

/**
 * playwright-core's Chromium launcher, loaded when a browser is needed: most runs never start one,
 * and loading it costs every CLI start. Loaded before a browser's folder is made, so that at exit
 * Playwright's kill of a browser still running comes before the folder's removal. Loaded with
 * `require`, not `import()`: playwright-core is a CommonJS package whose entry re-exports a large
 * bundle, and an `import()` first scans that bundle's source for its export names (about 180 ms
 * of CPU of a 470 ms load, on a 2-core machine).
 */
async function playwrightChromium(executablePath: string): Promise<BrowserType> {
  try {
    return (loadCommonJs('playwright-core') as typeof import('playwright-core')).chromium;
  } catch (e) {
    throw cannotStart(executablePath, e);
  }
}

/**
 * Starts Debian's Chromium (see find-chromium.ts) through playwright-core with a fresh
 * temporary profile. When `signal` aborts (the case's timeout) the browser is closed at once.
 */
export async function launchBrowser(signal: AbortSignal, env: NodeJS.ProcessEnv = process.env): Promise<HeadlessBrowser> {
  const executablePath = requireChromium(env);
  const chromium = await playwrightChromium(executablePath);
  const home = makeChromiumHome();
  const removeProfile = (): void => home.remove();
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(home.profileDir, launchOptions(executablePath, home));
  } catch (e) {
    removeProfile();
    throw cannotStart(executablePath, e);
  }
  home.started();
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= context
      .close()
      .catch(() => undefined)
      .finally(() => {
        signal.removeEventListener('abort', onAbort);
        removeProfile();
      });
    return closing;
  };
  const onAbort = (): void => void close();
  if (signal.aborted) {
    await close();
    throw new SpecgateError('SG_CASE_TIMEOUT', 'the case was stopped while Chromium was starting');
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return { context, executablePath, profileDir: home.profileDir, close };
}

/**
 * Starts Chromium through playwright-core as a browser that opens many isolated contexts (one
 * per case of the user agent, or per page visit: each gets its own cookies), rather than
 * launchBrowser's single persistent profile. `executablePath` is the caller's choice (see
 * requireChromium); the browser is the caller's to close. Its temporary home goes once it has
 * closed (or crashed).
 */
export async function launchChromium(executablePath: string): Promise<Browser> {
  const chromium = await playwrightChromium(executablePath);
  const home = makeChromiumHome();
  let browser: Browser;
  try {
    browser = await chromium.launch(launchOptions(executablePath, home));
  } catch (e) {
    home.remove();
    throw cannotStart(executablePath, e);
  }
  home.started();
  // Playwright tells of the disconnection once the browser's process has ended
  browser.on('disconnected', () => home.remove());
  return browser;
}
