import type { Frame, Page, Request, Response } from 'playwright-core';

/** Chromium's own page for a navigation that failed; its URL says nothing about where the browser went. */
const ERROR_PAGE = /^chrome-error:/;

/**
 * Where a page is, as a person would read the address bar: the URL of the last document the
 * main frame showed, or, when the last navigation failed (a redirect to a loopback callback
 * nobody listens on, a name that does not resolve), the URL it was sent to. Chromium shows
 * `chrome-error://chromewebdata/` then; the redirect's target is what a user agent reports.
 * Also counts the main frame's navigations still in flight, so that a step can wait for the
 * one its click started to end.
 */
export class PageLocation {
  private url: string | undefined;
  private failure: string | undefined;
  private failureAfterRedirect = false;
  private documentStatus: number | null = null;
  /** The last redirect's Location, resolved, `#fragment` included (a request's URL never has one). */
  private redirectedTo: string | undefined;
  private readonly inFlight = new Set<Request>();
  /**
   * Requests answered with a redirect: Playwright reports each finished before it announces the
   * next hop (Chromium announces one even for an address it will not load), and between the two
   * the navigation is still under way.
   */
  private readonly redirected = new WeakSet<Request>();
  /** Bumped on every main-frame navigation event: a settle wait restarts when it changes. */
  private generation = 0;
  /** Main-frame navigations that failed or were aborted so far. */
  private failedCount = 0;
  /** Who waits for the next navigation event (see {@link PageLocation.changed}). */
  private waiting: Array<() => void> = [];

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('requestfinished', this.onDone);
    page.on('requestfailed', this.onFailed);
    page.on('response', this.onResponse);
    page.on('framenavigated', this.onNavigated);
  }

  /** The current URL (see the class comment). */
  current(): string {
    return this.url ?? this.page.url();
  }

  /** Why the last navigation failed (`net::ERR_CONNECTION_REFUSED`), when it did. */
  failed(): string | undefined {
    return this.failure;
  }

  /** True when the last navigation failed on a redirect's target, not on the address first asked for. */
  failedAfterRedirect(): boolean {
    return this.failure !== undefined && this.failureAfterRedirect;
  }

  /** The HTTP status of the current document; null when its address did not answer. */
  status(): number | null {
    return this.documentStatus;
  }

  /** True while a navigation of the main frame is under way. */
  navigating(): boolean {
    return this.inFlight.size > 0;
  }

  /** How many navigations of the main frame failed or were aborted so far. */
  failures(): number {
    return this.failedCount;
  }

  /** A number that changes whenever the main frame starts, ends or fails a navigation. */
  version(): number {
    return this.generation;
  }

  /** Resolves at the main frame's next navigation event: one started, redirected, ended, failed or committed. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  detach(): void {
    this.bump();
    this.page.off('request', this.onRequest);
    this.page.off('requestfinished', this.onDone);
    this.page.off('requestfailed', this.onFailed);
    this.page.off('response', this.onResponse);
    this.page.off('framenavigated', this.onNavigated);
  }

  private bump(): void {
    this.generation++;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  private mainNavigation(r: Request): boolean {
    try {
      return r.isNavigationRequest() && r.frame() === this.page.mainFrame();
    } catch {
      // a request of a service worker has no frame
      return false;
    }
  }

  private readonly onRequest = (r: Request): void => {
    if (!this.mainNavigation(r)) return;
    // a redirect hop ends the request it came from
    const from = r.redirectedFrom();
    if (from) this.inFlight.delete(from);
    this.inFlight.add(r);
    this.bump();
  };

  private readonly onDone = (r: Request): void => {
    if (this.redirected.has(r)) return;
    if (this.inFlight.delete(r)) this.bump();
  };

  private readonly onResponse = (r: Response): void => {
    if (!this.mainNavigation(r.request())) return;
    this.documentStatus = r.status();
    const location = r.status() >= 300 && r.status() < 400 ? r.headers()['location'] : undefined;
    this.redirectedTo = location !== undefined ? resolved(location, r.url()) : undefined;
    if (location !== undefined) this.redirected.add(r.request());
  };

  private readonly onFailed = (r: Request): void => {
    if (!this.inFlight.delete(r)) return;
    this.failedCount++;
    const why = r.failure()?.errorText ?? 'failed';
    // an aborted navigation was replaced by another one (or by a download): it landed nowhere
    if (/ERR_ABORTED/.test(why)) {
      this.bump();
      return;
    }
    // a redirect to `...#access_token=...` fails without its fragment: the Location header has it
    const sent = this.redirectedTo;
    this.url = sent !== undefined && sent.replace(/#.*$/s, '') === r.url() ? sent : r.url();
    this.failure = why;
    this.failureAfterRedirect = r.redirectedFrom() !== null;
    this.documentStatus = null;
    this.bump();
  };

  private readonly onNavigated = (f: Frame): void => {
    if (f !== this.page.mainFrame()) return;
    // a document committed: a redirect whose next hop never came to be announced is over
    for (const r of this.inFlight) if (this.redirected.has(r)) this.inFlight.delete(r);
    const u = f.url();
    if (!ERROR_PAGE.test(u)) {
      this.url = u;
      this.failure = undefined;
    }
    this.bump();
  };
}

function resolved(location: string, base: string): string | undefined {
  try {
    return new URL(location, base).toString();
  } catch {
    return undefined;
  }
}
