import { availableParallelism } from 'node:os';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { SpecgateError } from '../../errors.js';
import { requireChromium } from './find-chromium.js';
import { launchChromium } from './launch-browser.js';
import { webOrigin } from './web-origin.js';

/**
 * One headless Chromium for the page visits of a process: started on first use (or ahead of the
 * first visit, see {@link holdBrowser}) and closed once no visit has used it for
 * {@link IDLE_CLOSE_MS}. Each visit gets a seat of its own: a context (cookies, storage, cache)
 * and a tab in it. A seat whose visit is over is wiped (see {@link wipeSeat}) and handed to the
 * next visit, so that a run's visits, one after the other, share a tab's renderer process instead
 * of starting one per visit (most of what a visit costs Chromium; launch-browser.ts's process
 * model keeps it so when the visits cross origins); no cookie, storage or cache entry of one
 * visit is left for the next.
 */
export interface BrowserSession {
  /** This visit's context: pages opened in it share cookies, as one visitor's would. */
  readonly context: BrowserContext;
  /** The visit's tab, blank: a visit that needs one page uses it rather than opening another. */
  readonly page: Page;
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
/**
 * How many seats visits share (at least two, one per core up to four): more visits at once only
 * split the same cores between more renderers, each started afresh.
 */
export const SEATS = Math.min(4, Math.max(2, availableParallelism()));
/**
 * How long a visit waits for a seat before it takes one of its own (ms): a visit that hangs holds
 * its seat for its whole budget, and the others must not wait that long.
 */
export const SEAT_WAIT_MS = 10_000;
/** Playwright's own default for a context's actions and navigations (ms), restored on a reused seat. */
const PLAYWRIGHT_DEFAULT_TIMEOUT_MS = 30_000;

/** A context with its tab, and the origins it has loaded anything from (whose storage the wipe clears). */
interface Seat {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly cdp: CDPSession;
  readonly origins: Set<string>;
}

interface Shared {
  executablePath: string;
  browser: Promise<Browser>;
  users: number;
  idle: NodeJS.Timeout | undefined;
  /** Wiped seats, ready for the next visit. */
  free: Seat[];
  /** Seats open, in use or free. */
  seats: number;
  /** Visits waiting for a seat: called when one is handed back. */
  waiting: Array<() => void>;
}

let shared: Shared | undefined;

function acquire(executablePath: string): Shared {
  if (!shared || shared.executablePath !== executablePath) {
    const entry: Shared = { executablePath, browser: launchChromium(executablePath), users: 0, idle: undefined, free: [], seats: 0, waiting: [] };
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

async function openSeat(browser: Browser): Promise<Seat> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const origins = new Set<string>();
    context.on('request', (r) => {
      const origin = webOrigin(r.url());
      if (origin) origins.add(origin);
    });
    return { context, page, cdp, origins };
  } catch (e) {
    await context.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Leaves nothing of the visit in its seat, as a fresh context has nothing: the tab back on
 * about:blank with no history and no window name, the storage of every origin the context loaded
 * anything from cleared (local and session storage, IndexedDB, Cache Storage, service workers,
 * file systems), the HTTP cache emptied, cookies and permissions gone. A seat with another page
 * still open (a window the visit opened) is not reused: what those pages hold is not wiped.
 */
async function wipeSeat(seat: Seat): Promise<boolean> {
  if (seat.page.isClosed() || seat.context.pages().length !== 1) return false;
  await seat.page.goto('about:blank');
  await seat.page.evaluate("window.name = ''");
  await seat.cdp.send('Page.resetNavigationHistory');
  for (const origin of seat.origins) await seat.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  seat.origins.clear();
  await seat.cdp.send('Network.clearBrowserCache');
  await seat.context.clearCookies();
  await seat.context.clearPermissions();
  return true;
}

/** Hands `seat` back: wiped for the next visit, or closed (a visit cut short, a wipe that failed, one seat too many). */
async function handBack(entry: Shared, seat: Seat, reusable: boolean): Promise<void> {
  const keep = reusable && entry.seats <= SEATS && (await wipeSeat(seat).catch(() => false));
  if (keep) entry.free.push(seat);
  else {
    entry.seats--;
    await seat.context.close().catch(() => undefined);
  }
  entry.waiting.shift()?.();
}

/** A free seat, else a new one while there are fewer than {@link SEATS}, else the next one handed back (or, after {@link SEAT_WAIT_MS}, a new one). */
async function takeSeat(entry: Shared, browser: Browser, signal: AbortSignal): Promise<Seat> {
  const until = Date.now() + SEAT_WAIT_MS;
  for (;;) {
    const free = entry.free.pop();
    if (free) return free;
    if (entry.seats < SEATS || Date.now() >= until) break;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        entry.waiting = entry.waiting.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, until - Date.now());
      signal.addEventListener('abort', done, { once: true });
      entry.waiting.push(done);
    });
    if (signal.aborted) throw new SpecgateError('SG_CASE_TIMEOUT', 'the case was stopped while waiting for a browser tab');
  }
  entry.seats++;
  try {
    return await openSeat(browser);
  } catch (e) {
    entry.seats--;
    entry.waiting.shift()?.();
    throw e;
  }
}

/**
 * Starts the shared browser now when it is not up, so that a visit about to come finds it
 * started: the caller overlaps Chromium's start with its own preparations (a server, a process
 * it launches). The browser is held until it has started, then closes as usual when no visit
 * comes. Never throws: a browser that cannot start is the visit's to report.
 */
export function warmBrowser(env: NodeJS.ProcessEnv = process.env): void {
  holdBrowser(env)();
}

/**
 * Starts the shared browser now, with a seat ready, and keeps it up until the returned function
 * is called: for a run that knows one of its cases will visit a page, so that Chromium starts
 * while the cases before it run rather than when the first visit needs it. Never throws: a
 * browser that cannot start is the visit's to report.
 */
export function holdBrowser(env: NodeJS.ProcessEnv = process.env): () => void {
  let entry: Shared;
  try {
    entry = acquire(requireChromium(env));
  } catch {
    return () => undefined;
  }
  let held = true;
  let ready = false;
  const started = entry.browser.then(
    async (browser) => {
      if (!held || entry.seats > 0 || entry.free.length > 0) return;
      entry.seats++;
      const seat = await openSeat(browser).catch(() => undefined);
      if (seat) entry.free.push(seat);
      else entry.seats--;
      entry.waiting.shift()?.();
    },
    () => undefined,
  );
  void started.finally(() => {
    ready = true;
    if (!held) release(entry);
  });
  return () => {
    if (!held) return;
    held = false;
    if (ready) release(entry);
  };
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
 * What `use` sets up on its session it also takes down (its listeners, routes): the wipe clears
 * what pages leave (storage, cookies, cache, history), not what the visit's own code installed.
 *
 * Runs `use` with a seat of the shared browser, a context and a blank tab of its own, and always
 * hands the seat back afterwards, whatever `use` did: wiped for the next visit when `use` ended
 * with its tab the only page, closed otherwise. When `signal` aborts (the case's timeout) the
 * context is closed at once; the browser stays for the other visits. With `limits.timeoutMs` every
 * navigation and page action of the context defaults to that deadline, so a target that never
 * answers fails a visit as fast as a request.
 */
export async function withBrowser<T>(signal: AbortSignal, use: (browser: BrowserSession) => Promise<T>, env: NodeJS.ProcessEnv = process.env, limits: BrowserLimits = {}): Promise<T> {
  const executablePath = requireChromium(env);
  const entry = acquire(executablePath);
  try {
    const browser = await entry.browser;
    if (signal.aborted) throw new SpecgateError('SG_CASE_TIMEOUT', 'the case was stopped while Chromium was starting');
    const seat = await takeSeat(entry, browser, signal);
    const { context, page } = seat;
    context.setDefaultTimeout(limits.timeoutMs ?? PLAYWRIGHT_DEFAULT_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(limits.timeoutMs ?? PLAYWRIGHT_DEFAULT_TIMEOUT_MS);
    // the tab's own defaults would outrank the context's: the previous visit's must not stay
    page.setDefaultTimeout(limits.timeoutMs ?? PLAYWRIGHT_DEFAULT_TIMEOUT_MS);
    page.setDefaultNavigationTimeout(limits.timeoutMs ?? PLAYWRIGHT_DEFAULT_TIMEOUT_MS);
    const onAbort = (): void => void context.close().catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    let done = false;
    try {
      const result = await use({ context, page, executablePath, ...(limits.timeoutMs !== undefined ? { timeoutMs: limits.timeoutMs } : {}) });
      done = true;
      return result;
    } finally {
      signal.removeEventListener('abort', onAbort);
      await handBack(entry, seat, done && !signal.aborted);
    }
  } finally {
    release(entry);
  }
}
