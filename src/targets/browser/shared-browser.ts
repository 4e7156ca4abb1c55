import type { Browser, BrowserContext } from 'playwright-core';
import { SpecgateError } from '../../errors.js';
import { requireChromium } from './find-chromium.js';
import { launchChromium } from './launch-browser.js';

/**
 * One headless Chromium for the page visits of a process: started on first use, each visit in
 * a context of its own (its own cookies, storage and cache: as isolated from the others as a
 * fresh profile), and closed once no visit has used it for {@link IDLE_CLOSE_MS}. Starting
 * Chromium costs a second or more of CPU on a two-core machine; a run's visits share that.
 */
export interface BrowserSession {
  /** This visit's context: pages opened in it share cookies, as one visitor's would. */
  readonly context: BrowserContext;
  readonly executablePath: string;
  /**
   * How long one navigation or page action may take (ms), when the visit is bounded by the
   * target's per-request deadline: also the context's default for every Playwright call.
   */
  readonly timeoutMs?: number;
}

/** What bounds a visit besides the case's signal. */
export interface BrowserLimits {
  /** The target's per-request deadline (`http.timeoutMs`): a page of the target takes no longer to load. */
  timeoutMs?: number;
}

/** How long an unused browser stays up for the next visit (ms). */
export const IDLE_CLOSE_MS = 1500;

interface Shared {
  executablePath: string;
  browser: Promise<Browser>;
  users: number;
  idle: NodeJS.Timeout | undefined;
}

let shared: Shared | undefined;

function acquire(executablePath: string): Shared {
  if (!shared || shared.executablePath !== executablePath) {
    const entry: Shared = { executablePath, browser: launchChromium(executablePath), users: 0, idle: undefined };
    // a browser that crashed or failed to start is started afresh by the next visit
    const forget = (): void => {
      if (shared === entry) shared = undefined;
    };
    entry.browser.then((b) => b.on('disconnected', forget), forget);
    shared = entry;
  }
  const entry = shared;
  if (entry.idle) clearTimeout(entry.idle);
  entry.idle = undefined;
  entry.users++;
  return entry;
}

function release(entry: Shared): void {
  entry.users--;
  if (entry.users > 0) return;
  entry.idle = setTimeout(() => {
    if (entry.users > 0) return;
    if (shared === entry) shared = undefined;
    void entry.browser.then((b) => b.close()).catch(() => undefined);
  }, IDLE_CLOSE_MS);
  // the process may end before that: Playwright stops the browsers it started when it exits
  entry.idle.unref();
}

/**
 * Starts the shared browser now when it is not up, so that a visit about to come finds it
 * started: the caller overlaps Chromium's start with its own preparations (a server, a process
 * it launches). The browser is held until it has started, then closes as usual when no visit
 * comes. Never throws: a browser that cannot start is the visit's to report.
 */
export function warmBrowser(env: NodeJS.ProcessEnv = process.env): void {
  let entry: Shared;
  try {
    entry = acquire(requireChromium(env));
  } catch {
    return;
  }
  void entry.browser.then(
    () => release(entry),
    () => release(entry),
  );
}

/** Whether the shared browser is up or starting (for tests of who closes it). */
export function sharedBrowserOpen(): boolean {
  return shared !== undefined;
}

/**
 * Closes the shared browser now if no visit is using it, rather than after {@link IDLE_CLOSE_MS}:
 * for the end of a run, whose process would otherwise stay up that long for a browser no one
 * will use. A browser in use is left to close as usual once its visits are done.
 */
export async function closeIdleBrowser(): Promise<void> {
  const entry = shared;
  if (!entry || entry.users > 0) return;
  if (entry.idle) clearTimeout(entry.idle);
  entry.idle = undefined;
  shared = undefined;
  await entry.browser.then((b) => b.close()).catch(() => undefined);
}

/**
 * Runs `use` with a fresh context of the shared browser and always closes the context
 * afterwards, whatever `use` did. When `signal` aborts (the case's timeout) the context is
 * closed at once; the browser stays for the other visits. With `limits.timeoutMs` every
 * navigation and page action of the context defaults to that deadline, so a target that never
 * answers fails a visit as fast as a request.
 */
export async function withBrowser<T>(signal: AbortSignal, use: (browser: BrowserSession) => Promise<T>, env: NodeJS.ProcessEnv = process.env, limits: BrowserLimits = {}): Promise<T> {
  const executablePath = requireChromium(env);
  const entry = acquire(executablePath);
  try {
    const browser = await entry.browser;
    if (signal.aborted) throw new SpecgateError('SG_CASE_TIMEOUT', 'the case was stopped while Chromium was starting');
    const context = await browser.newContext();
    if (limits.timeoutMs !== undefined) {
      context.setDefaultTimeout(limits.timeoutMs);
      context.setDefaultNavigationTimeout(limits.timeoutMs);
    }
    const onAbort = (): void => void context.close().catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await use({ context, executablePath, ...(limits.timeoutMs !== undefined ? { timeoutMs: limits.timeoutMs } : {}) });
    } finally {
      signal.removeEventListener('abort', onAbort);
      await context.close().catch(() => undefined);
    }
  } finally {
    release(entry);
  }
}
